import { CallbackPage } from './callback-page';

export default function DexcomCallbackPage() {
  return <CallbackPage provider="dexcom" />;
}
