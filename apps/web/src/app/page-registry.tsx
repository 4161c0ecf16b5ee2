/*
 * Which component each route renders. Every path of the contract's route
 * table is here; pages that later issues build show NotAvailableYet with the
 * page's name. Each page is its own lazily loaded chunk.
 */
import { type ComponentType, lazy, type ReactNode } from 'react';
import { NotAvailableYet } from '../components/not-available-yet';

const LoginPage = lazy(() => import('../features/auth/pages/login-page'));
const ContactUsPage = lazy(() => import('../features/contact/pages/contact-us-page'));
const DashboardPage = lazy(() => import('../features/trials/pages/dashboard-page'));
const NotAuthorizedPage = lazy(() => import('../features/shell/pages/not-authorized-page'));
const PrivacyPolicyPage = lazy(() => import('../features/shell/pages/privacy-policy-page'));
const TermsPage = lazy(() => import('../features/shell/pages/terms-page'));

const TrialPage = lazy(() => import('../features/participants/pages/trial-page'));
const AddParticipantPage = lazy(() => import('../features/participants/pages/add-participant-page'));
const ManageParticipantPage = lazy(() => import('../features/participants/pages/manage-participant-page'));
const ParticipantsDataPage = lazy(() => import('../features/participants/pages/participants-data-page'));
const ParticipantsPage = lazy(() => import('../features/participants/pages/participants-page'));
const TrialsPage = lazy(() => import('../features/trials/pages/trials-page'));
const UserTeamsPage = lazy(() => import('../features/teams/pages/user-teams-page'));
const TrialUsersPage = lazy(() => import('../features/trial-users/pages/trial-users-page'));

const SfaSetupPage = lazy(() => import('../features/sfa/pages/sfa-setup-page'));
const SfaVerifyPage = lazy(() => import('../features/sfa/pages/sfa-verify-page'));
const SfaValidatePage = lazy(() => import('../features/sfa/pages/sfa-validate-page'));
const SfaSendCodePage = lazy(() => import('../features/sfa/pages/sfa-send-code-page'));
const ResetRequestPage = lazy(() => import('../features/passwords/pages/reset-request-page'));
const ResetPasswordPage = lazy(() => import('../features/passwords/pages/reset-password-page'));
const ChangePasswordPage = lazy(() => import('../features/passwords/pages/change-password-page'));
const SignupValidationPage = lazy(() => import('../features/signup/pages/signup-validation-page'));
const SignupPage = lazy(() => import('../features/signup/pages/signup-page'));
const SignupApprovalPage = lazy(() => import('../features/signup/pages/signup-approval-page'));
const ParticipantSignupPage = lazy(() => import('../features/signup/pages/participant-signup-page'));
const ParticipantLoginPage = lazy(
  () => import('../features/participant-portal/pages/participant-login-page'),
);
const ParticipantHomePage = lazy(() => import('../features/participant-portal/pages/participant-home-page'));
const LockedAccountsPage = lazy(() => import('../features/users/pages/locked-accounts-page'));
const AuditTrailPage = lazy(() => import('../features/audit-trail/pages/audit-trail-page'));
const DeviceMetricsManagerPage = lazy(
  () => import('../features/device-metrics/pages/device-metrics-manager-page'),
);
const TeamDataRetentionPage = lazy(() => import('../features/data-retention/pages/team-data-retention-page'));
const DbInfoPage = lazy(() => import('../features/db-info/pages/db-info-page'));
const DataExportPage = lazy(() => import('../features/data-export/pages/data-export-page'));
const StudyHealthPage = lazy(() => import('../features/study-health/pages/study-health-page'));

const FitbitConsentPage = lazy(() => import('../features/device-links/pages/consent-page'));
const OmronConsentPage = lazy(() => import('../features/device-links/pages/omron-consent-page'));
const FitbitParticipantConsentPage = lazy(() =>
  import('../features/device-links/pages/participant-consent-page').then((m) => ({
    default: m.FitbitParticipantConsentPage,
  })),
);
const DexcomParticipantConsentPage = lazy(() =>
  import('../features/device-links/pages/participant-consent-page').then((m) => ({
    default: m.DexcomParticipantConsentPage,
  })),
);
const FitbitManageTokenPage = lazy(() =>
  import('../features/device-links/pages/manage-token-page').then((m) => ({
    default: m.FitbitManageTokenPage,
  })),
);
const OmronManageTokenPage = lazy(() =>
  import('../features/device-links/pages/manage-token-page').then((m) => ({
    default: m.OmronManageTokenPage,
  })),
);
const FitbitCallbackPage = lazy(() => import('../features/device-links/pages/callback-page'));
const OmronCallbackPage = lazy(() => import('../features/device-links/pages/omron-callback-page'));
const DexcomCallbackPage = lazy(() => import('../features/device-links/pages/dexcom-callback-page'));

const OmronParticipantDataPage = lazy(() => import('../features/device-data/omron/omron-data-page'));
const OmronParticipantsDataPage = lazy(() => import('../features/device-data/omron/omron-participants-page'));
const DexcomParticipantDataPage = lazy(() => import('../features/device-data/dexcom/dexcom-data-page'));
const ParticipantOverviewPage = lazy(
  () => import('../features/device-data/overview/participant-overview-page'),
);
const OmronParticipantOverviewPage = lazy(() =>
  import('../features/device-data/overview/participant-overview-page').then((m) => ({
    default: m.OmronParticipantOverviewPage,
  })),
);
const rawPage = (
  name: 'FitbitRawPage' | 'OmronRawPage' | 'DexcomRawPage' | 'ParticipantRawPage' | 'ParticipantDataPage',
) => lazy(() => import('../features/device-data/raw/raw-pages').then((m) => ({ default: m[name] })));
const FitbitRawPage = rawPage('FitbitRawPage');
const OmronRawPage = rawPage('OmronRawPage');
const DexcomRawPage = rawPage('DexcomRawPage');
const ParticipantRawPage = rawPage('ParticipantRawPage');
const ParticipantDataPage = rawPage('ParticipantDataPage');
const FitbitDataPage = lazy(() => import('../features/device-data/fitbit/pages/fitbit-data-page'));
const FitbitDataFormPage = lazy(() => import('../features/device-data/fitbit/pages/fitbit-data-form-page'));
const FitbitOverviewPage = lazy(() => import('../features/device-data/fitbit/pages/fitbit-overview-page'));
const FitbitOneDayPage = lazy(() => import('../features/device-data/fitbit/pages/fitbit-one-day-page'));
const FitbitParticipantsDataPage = lazy(
  () => import('../features/device-data/fitbit/pages/fitbit-participants-data-page'),
);

const BUILT: Record<string, ComponentType> = {
  '/OmronParticipantDataPage': OmronParticipantDataPage,
  '/OmronParticipantsDataPage': OmronParticipantsDataPage,
  '/DexcomParticipantDataPage': DexcomParticipantDataPage,
  '/ParticipantOverview': ParticipantOverviewPage,
  '/OmronParticipantOverview': OmronParticipantOverviewPage,
  '/ParticipantRaw': ParticipantRawPage,
  '/FitbitParticipantDataRaw': FitbitRawPage,
  '/OmronParticipantDataRaw': OmronRawPage,
  '/DexcomParticipantDataRaw': DexcomRawPage,
  '/ParticipantDataPage': ParticipantDataPage,
  '/PAFitbitConsentPage': FitbitConsentPage,
  '/fitbit-callback': FitbitCallbackPage,
  '/OmronConsentPage': OmronConsentPage,
  '/omron-callback': OmronCallbackPage,
  '/dexcom-callback': DexcomCallbackPage,
  '/SFASetupPage': SfaSetupPage,
  '/SFAVerifyPage': SfaVerifyPage,
  '/SFAValidatePage': SfaValidatePage,
  '/SFASendCodeViaMsgPage': SfaSendCodePage,
  '/ResetPwdReqPage': ResetRequestPage,
  '/ResetPasswordPage': ResetPasswordPage,
  '/ChangePwdReqPage': ChangePasswordPage,
  '/SignupValidation': SignupValidationPage,
  '/SignupPage': SignupPage,
  '/SignUpApprovalPage': SignupApprovalPage,
  '/LockedAccounts': LockedAccountsPage,
  '/AuditTrail': AuditTrailPage,
  '/DeviceMetricsManager': DeviceMetricsManagerPage,
  '/TeamDataRetention': TeamDataRetentionPage,
  '/DbInfoPage': DbInfoPage,
  '/DataExport': DataExportPage,
  '/StudyHealth': StudyHealthPage,
  '/ParticipantSignupPage': ParticipantSignupPage,
  '/ParticipantLoginPage': ParticipantLoginPage,
  '/ParticipantHome': ParticipantHomePage,
  '/TrialPage': TrialPage,
  '/AddParticipantPage': AddParticipantPage,
  '/Participant': ManageParticipantPage,
  '/ParticipantsDataPage': ParticipantsDataPage,
  '/TrialUsers': TrialUsersPage,
  '/FitbitParticipantDataPage': FitbitDataPage,
  '/FitbitParticipantDataForm': FitbitDataFormPage,
  '/FitbitParticipantOverview': FitbitOverviewPage,
  '/FitbitParticipant1DayData': FitbitOneDayPage,
  '/FitbitParticipantsDataPage': FitbitParticipantsDataPage,
  '/ParticipantsPage': ParticipantsPage,
  '/Trials': TrialsPage,
  '/UserTeams': UserTeamsPage,
  '/FitbitParticipantConsent': FitbitParticipantConsentPage,
  '/DexcomParticipantConsent': DexcomParticipantConsentPage,
  '/FitbitManageParticipantToken': FitbitManageTokenPage,
  '/OmronManageParticipantToken': OmronManageTokenPage,
  '/LoginPage': LoginPage,
  '/ContactUsForm/': ContactUsPage,
  '/': DashboardPage,
  '/not-authorized': NotAuthorizedPage,
  '/privacy-policy': PrivacyPolicyPage,
  '/terms': TermsPage,
};

/** Human names of the pages still to be built (shown on their placeholder). */
const TITLES: Record<string, string> = {
  '/SignupPage': 'Sign up',
  '/ParticipantSignupPage': 'Participant sign-up',
  '/fitbit-callback': 'Fitbit authorization',
  '/omron-callback': 'Omron authorization',
  '/dexcom-callback': 'Dexcom authorization',
  '/PAFitbitConsentPage': 'Device data consent',
  '/OmronConsentPage': 'Omron data consent',
  '/ResetPwdReqPage': 'Reset password request',
  '/ResetPasswordPage': 'Reset password',
  '/SignupValidation': 'Sign-up validation',
  '/SFASetupPage': 'Second factor setup',
  '/SFAVerifyPage': 'Verify second factor',
  '/SFAValidatePage': 'Second factor',
  '/SFASendCodeViaMsgPage': 'Second factor by email',
  '/UserTeams': 'Teams',
  '/Trials': 'Trials',
  '/TrialPage': 'Trial',
  '/FitbitParticipantDataPage': 'Fitbit participant data',
  '/ParticipantsDataPage': 'Participants data',
  '/FitbitParticipantOverview': 'Fitbit participant overview',
  '/ParticipantsPage': 'Participants',
  '/AddParticipantPage': 'Add participant',
  '/FitbitParticipantDataForm': 'Fitbit data query',
  '/FitbitParticipant1DayData': 'Fitbit one-day data',
  '/FitbitParticipantsDataPage': 'Fitbit data for several participants',
  '/ChangePwdReqPage': 'Change password',
  '/Participant': 'Manage participant',
  '/FitbitParticipantConsent': 'Fitbit consent',
  '/DexcomParticipantConsent': 'Dexcom consent',
  '/FitbitManageParticipantToken': 'Fitbit token management',
  '/OmronManageParticipantToken': 'Omron token management',
  '/TrialUsers': 'Manage Users for this trial',
  '/SignUpApprovalPage': 'Sign-up approval',
};

export function pageFor(path: string): ReactNode {
  const Built = BUILT[path];
  if (Built) return <Built />;
  return <NotAvailableYet title={TITLES[path] ?? path} />;
}
