/** What other features may use of the second factor: the profile menu's reset. */
export { useResetSecondFactor } from './use-reset-second-factor';
