import { toast } from 'sonner';
import { API_KEYS_TEXT } from './messages';

/** Copies text and says so (`title`, e.g. 'API Key Copied'); falls back to a selection-based copy where the API is missing. */
export async function copyToClipboard(text: string, title: string, description: string): Promise<void> {
  try {
    if (navigator.clipboard?.writeText) await navigator.clipboard.writeText(text);
    else {
      const area = document.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.style.position = 'fixed';
      area.style.opacity = '0';
      document.body.appendChild(area);
      area.select();
      const ok = document.execCommand('copy');
      area.remove();
      if (!ok) throw new Error('copy refused');
    }
    toast.success(title, { description });
  } catch {
    toast.error(API_KEYS_TEXT.errorTitle, { description: API_KEYS_TEXT.copyFailed });
  }
}
