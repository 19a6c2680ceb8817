import { isInternalHost, webhookUrlProblem } from '../../../../subgraphs/tenant/services/webhook-url';

describe('webhook URL rules', () => {
  it.each([
    'localhost',
    'api.localhost',
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.10',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '[::1]',
    '[::]',
    '[fc00::1]',
    '[fd12:3456::1]',
    '[fe80::1]',
    '[febf::1]',
    '[::ffff:7f00:1]',
    '[::ffff:10.0.0.1]',
    '[64:ff9b::a9fe:a9fe]',
    '192.0.0.8',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '[ff02::1]',
    '[2002:7f00:1::]',
  ])('%s is internal', (host) => expect(isInternalHost(host)).toBe(true));

  it.each(['hooks.example.com', '8.8.8.8', '172.32.0.1', '172.15.255.255', '192.169.0.1', '[2001:db8::1]', '[fec0::1]', '[::ffff:808:808]', '11.0.0.1'])(
    '%s is public',
    (host) => expect(isInternalHost(host)).toBe(false),
  );

  it('demands https on a public host unless insecure endpoints are allowed', () => {
    expect(webhookUrlProblem('https://hooks.example.com/x', false)).toBeNull();
    expect(webhookUrlProblem('http://hooks.example.com/x', false)).toBe('url must use https');
    expect(webhookUrlProblem('https://127.0.0.1/x', false)).toBe('url must not point to a private, loopback or link-local address');
    expect(webhookUrlProblem('https://0x7f.1/x', false)).toBe('url must not point to a private, loopback or link-local address');
    expect(webhookUrlProblem('https://2130706433/', false)).toBe('url must not point to a private, loopback or link-local address');
    expect(webhookUrlProblem('https://[::1]:8443/', false)).toBe('url must not point to a private, loopback or link-local address');
    expect(webhookUrlProblem('http://localhost:3000/hook', true)).toBeNull();
    expect(webhookUrlProblem('https://user:pw@hooks.example.com/', true)).toBe('url must not contain credentials');
    expect(webhookUrlProblem('hooks.example.com', false)).toBe('url must be an absolute https URL');
    expect(webhookUrlProblem('ftp://hooks.example.com', true)).toBe('url must be an absolute https URL');
  });
});
