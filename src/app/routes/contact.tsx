import { Building2, Clock, Mail, Phone, Send } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { SALES_EMAIL, SUPPORT_EMAIL } from '../../../server/contracts/plans';
import { MarketingLayout, MarketingPageHeader } from '../../components/layouts/marketing-layout';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { IconRow } from '../../components/ui/icon-row';
import { Input } from '../../components/ui/input';
import { Textarea } from '../../components/ui/textarea';

const PHONE_DISPLAY = '+1 (415) 555-0142';
const PHONE_HREF = 'tel:+14155550142';
const SEND_DELAY_MS = 1000;
const FILL_IN_MESSAGE = 'Please fill in this field.';

const emptyForm = { name: '', email: '', subject: '', message: '' };

/** Spec section 2: nothing is sent to a server; after about a second a toast confirms and the form clears. */
function ContactForm() {
  const [form, setForm] = useState(emptyForm);
  const [sending, setSending] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  function update(field: keyof typeof emptyForm) {
    return (e: { target: HTMLInputElement | HTMLTextAreaElement }) => {
      e.target.setCustomValidity('');
      setForm((f) => ({ ...f, [field]: e.target.value }));
    };
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (sending) return;
    // All four are required (spec section 5): spaces only pass the browser's own check but say
    // nothing, so that field is marked as not filled in and nothing is "sent" (what was typed stays).
    const blank = (Object.keys(emptyForm) as (keyof typeof emptyForm)[]).find((k) => form[k].trim() === '');
    if (blank) {
      const el = e.currentTarget.elements.namedItem(blank);
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
        el.setCustomValidity(FILL_IN_MESSAGE);
        el.reportValidity();
        el.focus();
      }
      return;
    }
    setSending(true);
    timer.current = setTimeout(() => {
      toast.success('Message Sent!', { description: "We'll get back to you within 24 hours." });
      setForm(emptyForm);
      setSending(false);
    }, SEND_DELAY_MS);
  }

  return (
    <form onSubmit={onSubmit} className="space-y-5" aria-label="Contact form">
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id="contact-name" label="Name" required>
          <Input id="contact-name" name="name" autoComplete="name" required value={form.name} onChange={update('name')} placeholder="Jane Cooper" />
        </Field>
        <Field id="contact-email" label="Email" required>
          <Input
            id="contact-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={form.email}
            onChange={update('email')}
            placeholder="jane@company.com"
          />
        </Field>
      </div>
      <Field id="contact-subject" label="Subject" required>
        <Input id="contact-subject" name="subject" required value={form.subject} onChange={update('subject')} placeholder="How can we help?" />
      </Field>
      <Field id="contact-message" label="Message" required>
        <Textarea
          id="contact-message"
          name="message"
          required
          rows={6}
          value={form.message}
          onChange={update('message')}
          placeholder="Tell us about your lists, volumes or the question you have."
        />
      </Field>
      {/* aria-disabled, not disabled: a disabled button drops the keyboard focus to the page. A press while sending is ignored (onSubmit). */}
      <Button type="submit" size="lg" aria-disabled={sending || undefined} className="w-full sm:w-auto">
        {sending ? (
          'Sending...'
        ) : (
          <>
            <Send className="size-4" aria-hidden="true" />
            Send Message
          </>
        )}
      </Button>
    </form>
  );
}

export default function ContactRoute() {
  return (
    <MarketingLayout title="Contact">
      <MarketingPageHeader
        eyebrow="Contact"
        title="Get in touch"
        description="Questions about validation results, the API, billing or a custom plan? Send us a message and we'll get back to you within 24 hours."
      />
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-16 sm:px-6 lg:grid-cols-[1.6fr_1fr] lg:px-8">
        <Card>
          <CardHeader>
            <CardTitle className="text-lg">Send us a message</CardTitle>
            <CardDescription>All fields are required.</CardDescription>
          </CardHeader>
          <CardContent>
            <ContactForm />
          </CardContent>
        </Card>
        <div className="space-y-6">
          <Card>
            <CardContent className="space-y-6 pt-6">
              <IconRow className="text-sm" icon={Mail} title="Email support">
                <a href={`mailto:${SUPPORT_EMAIL}`} className="font-medium text-brand-700 hover:underline">
                  {SUPPORT_EMAIL}
                </a>
                <p>We reply within 24 hours.</p>
              </IconRow>
              <IconRow className="text-sm" icon={Phone} title="Phone">
                <a href={PHONE_HREF} className="font-medium text-brand-700 hover:underline">
                  {PHONE_DISPLAY}
                </a>
                <p className="flex items-center gap-1.5">
                  <Clock className="size-3.5" aria-hidden="true" /> Mon-Fri 9am-6pm EST
                </p>
              </IconRow>
              <IconRow className="text-sm" icon={Building2} title="Office">
                <address className="not-italic">
                  Mailvet, Inc.
                  <br />
                  548 Market Street, Suite 300
                  <br />
                  San Francisco, CA 94104
                  <br />
                  United States
                </address>
              </IconRow>
            </CardContent>
          </Card>
          <div className="rounded-xl bg-slate-900 p-6 text-white">
            <h2 className="font-semibold">Talk to sales</h2>
            <p className="mt-1.5 text-sm text-slate-300">
              Custom volume, dedicated IPs, on-premise deployment or a custom SLA — our sales team will put together an Enterprise plan.
            </p>
            <Button
              href={`mailto:${SALES_EMAIL}?subject=${encodeURIComponent('Mailvet sales enquiry')}`}
              variant="inverse"
              className="mt-4"
            >
              <Mail className="size-4" aria-hidden="true" />
              Contact Sales
            </Button>
          </div>
        </div>
      </div>
    </MarketingLayout>
  );
}
