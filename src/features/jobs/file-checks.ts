import { looksLikeCsv } from '../../../server/contracts/jobs';
import { BULK_TEXT, MAX_UPLOAD_BYTES } from './messages';

export interface FileProblem {
  title: string;
  message: string;
}

/** Spec section 5: the file must be text/csv or named *.csv, and at most 10 MB. */
export function checkCsvFile(file: Pick<File, 'name' | 'type' | 'size'>): FileProblem | null {
  if (!looksLikeCsv(file.name, file.type)) return { title: BULK_TEXT.invalidTypeTitle, message: BULK_TEXT.invalidTypeBody };
  if (file.size > MAX_UPLOAD_BYTES) return { title: BULK_TEXT.tooLargeTitle, message: BULK_TEXT.tooLargeBody };
  return null;
}

/** "1.2 MB", "340 KB", "12 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
