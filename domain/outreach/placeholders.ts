/**
 * `{placeholders}` of outreach subjects and bodies. A placeholder is a name in
 * braces (`{lead_name}`); anything else in braces is left as text. Templates
 * may use only the names below (unknown ones are reported when a template is
 * saved); personalisation fills the ones it has values for.
 */

/** Every placeholder a template may use, with what fills it. */
export const PLACEHOLDERS: Record<string, string> = {
  lead_name: "the contact's name (lead_name of personalize)",
  name: 'same as lead_name',
  first_name: 'the first word of lead_name',
  website: 'the lead website host, e.g. example.org (from lead_website)',
  website_url: 'the lead website URL',
  website_title: 'the title of the lead website',
  contact_email: "the lead's contact email",
  topic: 'the content topic (content_topic of personalize, topic of generate)',
  content_topic: 'same as topic',
  sender_name: 'the name outreach mail is sent under (OUTREACH_FROM_NAME)',
  sender_email: 'the address outreach mail is sent from (OUTREACH_FROM_ADDRESS)',
  campaign_name: 'the name of the campaign',
};

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Placeholder names used in `text`, in order of first use. */
export function placeholdersIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) if (!out.includes(m[1])) out.push(m[1]);
  return out;
}

/** Names used in `text` that are not known placeholders. */
export const unknownPlaceholders = (text: string): string[] =>
  placeholdersIn(text).filter((p) => !Object.prototype.hasOwnProperty.call(PLACEHOLDERS, p));

/** Replaces each known placeholder that has a non-empty value; others stay as written. */
export function fillPlaceholders(text: string, values: Partial<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const v = values[name];
    return v !== undefined && v !== '' ? v : whole;
  });
}

/** Values derived from what personalisation is given (first name, host of the website). */
export function placeholderValues(input: {
  lead_name?: string;
  lead_website?: string;
  content_topic?: string;
  sender_name?: string;
  sender_email?: string;
  campaign_name?: string;
  website_title?: string;
  contact_email?: string;
}): Record<string, string> {
  const v: Record<string, string> = {};
  const name = input.lead_name?.trim();
  if (name) {
    v.lead_name = v.name = name;
    v.first_name = name.split(/\s+/)[0];
  }
  const site = input.lead_website?.trim();
  if (site) {
    v.website_url = site;
    v.website = hostOf(site);
  }
  const topic = input.content_topic?.trim();
  if (topic) v.topic = v.content_topic = topic;
  for (const k of ['sender_name', 'sender_email', 'campaign_name', 'website_title', 'contact_email'] as const) {
    const x = input[k]?.trim();
    if (x) v[k] = x;
  }
  return v;
}

/** `https://www.example.org/blog` → `example.org`; a bare host stays as it is. */
export function hostOf(site: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]+)/i.exec(site.trim());
  return (m ? m[1] : site.trim().split(/[/?#]/)[0]).toLowerCase().replace(/^www\./, '');
}
