import { useQuery } from '@tanstack/react-query';
import type { AuditVerificationResult } from '@trialwear/contract';
import { api } from '../../../lib/api-client';

export const useAuditVerification = () =>
  useQuery({
    queryKey: ['auditVerification'],
    queryFn: () => api.get<AuditVerificationResult>('/audit/verification'),
  });
