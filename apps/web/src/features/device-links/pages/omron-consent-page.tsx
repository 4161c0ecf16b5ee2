import { ConsentPage } from './consent-page';

export default function OmronConsentPage() {
  return <ConsentPage provider="omron" />;
}
