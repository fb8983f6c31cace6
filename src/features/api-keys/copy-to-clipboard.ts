import { toast } from 'sonner';
import { copyText } from '../../lib/copy-text';
import { API_KEYS_TEXT } from './messages';

/** Copies text and says so (`title`, e.g. 'API Key Copied'), or that it could not. */
export async function copyToClipboard(text: string, title: string, description: string): Promise<void> {
  if (await copyText(text)) toast.success(title, { description });
  else toast.error(API_KEYS_TEXT.errorTitle, { description: API_KEYS_TEXT.copyFailed });
}
