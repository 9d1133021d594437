/**
 * What sending and reply polling need (docs/outreach.md, "Configuration"): every missing variable is named,
 * the sender's display name included (it is the From: name and the footer's signature).
 */
import { loadConfig } from '../../../infra/config';
import { repliesReadiness, sendingReadiness } from '../../../infra/outreach';

const SENDING = {
  OUTREACH_SMTP_URL: 'smtp://user:pass@127.0.0.1:2525',
  OUTREACH_FROM_ADDRESS: 'outreach@platform.test',
  OUTREACH_FROM_NAME: 'Platform Outreach',
  OUTREACH_POSTAL_ADDRESS: 'Example Platform Ltd, 1 Sample Street, 00000 Testville',
};

describe('outreach readiness', () => {
  it('sending names every missing variable, OUTREACH_FROM_NAME included', () => {
    expect(sendingReadiness(loadConfig({}))).toEqual({
      configured: false,
      missing: ['OUTREACH_SMTP_URL', 'OUTREACH_FROM_ADDRESS', 'OUTREACH_FROM_NAME', 'OUTREACH_POSTAL_ADDRESS'],
    });
    expect(sendingReadiness(loadConfig(SENDING))).toEqual({ configured: true, missing: [] });
    const { OUTREACH_FROM_NAME: _n, ...noName } = SENDING;
    expect(sendingReadiness(loadConfig(noName))).toEqual({ configured: false, missing: ['OUTREACH_FROM_NAME'] });
    expect(sendingReadiness(loadConfig({ ...SENDING, OUTREACH_FROM_NAME: '   ' })).missing).toEqual([
      'OUTREACH_FROM_NAME',
    ]);
  });

  it('reply polling needs OUTREACH_IMAP_URL', () => {
    expect(repliesReadiness(loadConfig({}))).toEqual({ configured: false, missing: ['OUTREACH_IMAP_URL'] });
    expect(repliesReadiness(loadConfig({ OUTREACH_IMAP_URL: 'imap://u:p@127.0.0.1:1143' })).configured).toBe(true);
  });
});
