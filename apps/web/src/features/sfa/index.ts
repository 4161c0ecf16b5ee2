/** What other features may use of the second factor: the profile menu's reset (asks for the password). */
export { ResetSecondFactorModal } from './components/reset-second-factor-modal';
