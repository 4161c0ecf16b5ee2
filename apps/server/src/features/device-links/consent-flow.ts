/*
 * Linking a participant's device (core §4 authorization flow), the same way
 * for every provider: staff request consent (emailed link) → consent page
 * (authorizeUrl: the provider's authorize page, with PKCE where the provider
 * takes it) → callback (completeConsent: tokens stored encrypted and the
 * participant-device record authorized, in one transaction, audited). A link
 * moving to another API (legacy Fitbit → Google Health): `reconsent.ts`.
 */
import { LINK_MESSAGES, linkedMessage, PROVIDER_PAGES } from '@trialwear/contract';
import { AppError } from '../../access/errors.js';
import { type Actor, participantByGrant } from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordActorAudit, recordAudit } from '../../audit/audit-log.js';
import { saveTokens } from '../../providers/token-store.js';
import type { ProviderClient } from '../../providers/types.js';
import { getParticipant } from '../participants/service.js';
import {
  checkConsentLink,
  consumeConsentState,
  createConsentState,
  issueConsentLink,
} from './consent-state.js';
import { FITBIT_API_OF, giveBackGrant, grantToGiveBack, isOtherAccount } from './reconsent.js';
import * as repo from './repo.js';

export async function requestConsent(
  ctx: AppContext,
  c: ProviderClient,
  actor: Actor,
  participantId: number,
) {
  const { scope, row: p } = await getParticipant(ctx, actor, participantId);
  const token = await issueConsentLink(ctx, scope, c.provider, actor.userId);
  const link = new URL(`${ctx.config.publicUrl}${PROVIDER_PAGES[c.provider].consent}`);
  link.searchParams.set('id', String(p.id));
  link.searchParams.set('t', token);
  if (c.provider === 'dexcom') link.searchParams.set('provider', 'dexcom');
  const emailable = !p.email.endsWith('@hidden.invalid');
  if (emailable) {
    await ctx.mailer.send({
      to: p.email,
      subject: `Please connect your ${c.brand} to your study`,
      text: [
        'Hello,',
        '',
        `Your study team asks you to share your ${c.brand} data with the study through TrialWear.`,
        c.linkProvider === 'google_health'
          ? `Open this link, sign in with the Google account your ${c.brand} uses and choose Allow:`
          : `Open this link, sign in to ${c.brand} and choose Allow:`,
        '',
        link.toString(),
        '',
        `You can stop sharing at any time by telling your study team or removing TrialWear in your ${c.brand} account.`,
      ].join('\n'),
    });
  }
  await recordActorAudit(ctx.db, actor, {
    action: `${c.provider}.consent.requested`,
    entityType: 'participant',
    entityId: p.id,
    after: { emailed: emailable },
  });
  // When the team keeps no emails, staff hand the link over themselves.
  return { success: true, emailed: emailable, link: link.toString() };
}

export async function authorizeUrl(
  ctx: AppContext,
  c: ProviderClient,
  participantId: number,
  linkToken: string,
) {
  const consentTokenHash = await checkConsentLink(ctx, participantId, c.provider, linkToken);
  const s = c.settings;
  const { state, codeChallenge } = await createConsentState(
    ctx,
    participantId,
    c.linkProvider,
    consentTokenHash,
  );
  const url = new URL(s.authorizeUrl);
  const params = new URLSearchParams({
    client_id: s.clientId,
    response_type: 'code',
    redirect_uri: s.redirectUri,
    scope: s.scopes.join(' '),
    state,
  });
  if (s.pkce) {
    params.set('code_challenge', codeChallenge);
    params.set('code_challenge_method', 'S256');
  }
  for (const [k, v] of Object.entries(s.authorizeExtras ?? {})) params.set(k, v);
  url.search = params.toString();
  return { url: url.toString() };
}

/**
 * The callback. `syncSoon` (from the jobs module, passed in by the routes, so
 * that this feature does not import the job runner) starts the new link's
 * sync after the commit, rather than at the next 15-minute slot.
 */
export async function completeConsent(
  ctx: AppContext,
  c: ProviderClient,
  authCode: string,
  state: string,
  ip: string,
  syncSoon?: (deviceId: number) => Promise<unknown>,
) {
  const { participantId, codeVerifier, consentTokenHash } = await consumeConsentState(
    ctx,
    state,
    c.linkProvider,
  );
  const tokens = await c.oauth.exchangeCode(authCode, codeVerifier);
  if (!tokens.ok) throw new AppError(502, LINK_MESSAGES.authFailed, 'InternalError', { displayToUser: true });
  const now = ctx.now();
  // A link moving to another API (legacy Fitbit → Google Health): its old grant is given back afterwards.
  let replaced: Awaited<ReturnType<typeof grantToGiveBack>> = null;
  let linked: number | null = null;
  // The link, its tokens, the spent consent link and the audit entry commit together or not at all.
  const refusal = await ctx.db.transaction().execute(async (trx) => {
    // The consent state (signed, single-use, checked above) names the participant: it is the authority here.
    const participant = await participantByGrant({ db: trx }, participantId);
    if (!participant)
      throw new AppError(422, LINK_MESSAGES.badLink, 'ValidationError', { displayToUser: true });
    if (consentTokenHash && !(await repo.spendConsentLink(trx, consentTokenHash, now)))
      throw new AppError(422, LINK_MESSAGES.linkUsed, 'ValidationError', { displayToUser: true });
    const existing = await repo.findProviderLink(trx, c.provider, participant);
    if (isOtherAccount(existing, c.linkProvider, tokens.data)) {
      await recordAudit(trx, {
        userId: null,
        teamId: participant.teamId,
        action: `${c.provider}.link.refused_other_account`,
        entityType: 'participant',
        entityId: participantId,
        before: { providerUserId: existing?.provider_user_id },
        after: { providerUserId: tokens.data.providerUserId },
        ip,
      });
      return 'other_account' as const;
    }
    const values = {
      provider: c.linkProvider,
      authorization_status: 'authorized' as const,
      authorization_date: now,
      provider_user_id: tokens.data.providerUserId,
      legacy_user_id: tokens.data.legacyUserId ?? null,
      updated_at: now,
    };
    replaced = await grantToGiveBack({ ...ctx, db: trx }, existing, c.linkProvider);
    const linkId = existing
      ? await repo.authorizeLink(trx, existing.id, values)
      : await repo.insertLink(trx, {
          participantId,
          teamId: participant.teamId,
          catalogId: await repo.catalogDeviceId(trx, c.catalogDevice),
          ...values,
        });
    // A token answer without `scope` was granted the scope asked for (RFC 6749 §5.1: Omron's omits it).
    await saveTokens({ ...ctx, db: trx }, linkId, {
      ...tokens.data,
      scope: tokens.data.scope ?? c.settings.scopes.join(' '),
    });
    linked = linkId;
    await recordAudit(trx, {
      userId: null,
      teamId: participant.teamId,
      action: `${c.provider}.authorized`,
      entityType: 'participant',
      entityId: participantId,
      ...(existing && existing.provider !== c.linkProvider
        ? { before: { api: FITBIT_API_OF[existing.provider] ?? existing.provider } }
        : {}),
      after: {
        participantDeviceId: linkId,
        ...(FITBIT_API_OF[c.linkProvider] ? { api: FITBIT_API_OF[c.linkProvider] } : {}),
      },
      ip,
    });
    return null;
  });
  if (refusal === 'other_account') {
    // The new account's grant is not kept: give it back to the provider, then say what staff must do.
    if (c.oauth.revoke) await c.oauth.revoke(tokens.data.refresh_token ?? tokens.data.access_token);
    throw new AppError(409, LINK_MESSAGES.otherAccount, 'Conflict', { displayToUser: true });
  }
  await giveBackGrant(replaced);
  // A failure to enqueue is not the participant's: the 15-minute schedule syncs the link anyway.
  if (linked !== null && syncSoon)
    await syncSoon(linked).catch((err: unknown) => {
      console.error(
        `[trialwear] link ${linked}: could not start its sync: ${(err as Error)?.message ?? err}`,
      );
    });
  return { success: true, message: linkedMessage(c.provider) };
}
