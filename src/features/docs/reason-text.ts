// The label and meaning of each reason code, from the one source for every screen
// (server/contracts/reasons.ts).
import type { Reason } from '../../../probe/contract';
import { REASON_TEXT } from '../../../server/contracts/reasons';

export function reasonText(reason: Reason): { label: string; description: string } {
  return { label: REASON_TEXT[reason].label, description: REASON_TEXT[reason].description };
}
