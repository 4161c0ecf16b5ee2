import { CallbackPage } from './callback-page';

export default function OmronCallbackPage() {
  return <CallbackPage provider="omron" />;
}
