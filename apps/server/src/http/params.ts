export { idSchema } from '@trialwear/contract';
