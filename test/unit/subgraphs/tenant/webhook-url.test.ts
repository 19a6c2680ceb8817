import { isInternalHost, webhookUrlProblem } from '../../../../subgraphs/tenant/services/webhook-url';

const NOT_GLOBAL = 'url must point to a globally reachable address (not a private, loopback, link-local or other special-purpose one)';

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
    // The special-purpose ranges (IANA: not globally reachable).
    '192.0.2.1',
    '192.0.2.255',
    '198.51.100.7',
    '203.0.113.9',
    '[2001:db8::1]',
    '[2001:db8:ffff::1]',
    '[::ffff:0:808:808]',
    '[::ffff:0:0:1]',
    '[64:ff9b:1::808:808]',
    '[100::1]',
    '[100::ffff:ffff:ffff:ffff]',
    // The rest of the IPv4 registry.
    '0.1.2.3',
    '100.127.255.254',
    '192.0.0.9',
    '192.0.0.170',
    '192.88.99.1',
    '198.19.255.255',
    '240.0.0.1',
    // The rest of the IPv6 registry, and what it embeds.
    '[100:0:0:1::1]',
    '[2001::1]',
    '[2001:1::1]',
    '[2001:2::1]',
    '[2001:10::1]',
    '[3fff::1]',
    '[3fff:fff::1]',
    '[5f00::1]',
    '[fec0::1]',
    '[::7f00:1]',
    '[::808:808]',
    '[64:ff9b::7f00:1]',
    '[64:ff9b::c000:201]',
    '[::ffff:192.0.2.1]',
    '[::ffff:c633:6401]',
    '[2002:c000:0201::1]',
    '[fe80::1%25eth0]',
  ])('%s is internal', (host) => expect(isInternalHost(host)).toBe(true));

  it.each([
    'hooks.example.com',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '172.15.255.255',
    '192.169.0.1',
    '11.0.0.1',
    '100.128.0.1',
    '192.0.3.1',
    '198.51.101.1',
    '203.0.114.1',
    '192.31.196.1',
    '[2606:4700:4700::1111]',
    '[2001:4860:4860::8888]',
    '[2001:db9::1]',
    '[::ffff:808:808]',
    '[::ffff:8.8.8.8]',
    '[64:ff9b::808:808]',
    '[2002:808:808::1]',
    '[2001:4:112::1]',
  ])(
    '%s is public',
    (host) => expect(isInternalHost(host)).toBe(false),
  );

  it('demands https on a public host unless insecure endpoints are allowed', () => {
    expect(webhookUrlProblem('https://hooks.example.com/x', false)).toBeNull();
    expect(webhookUrlProblem('http://hooks.example.com/x', false)).toBe('url must use https');
    expect(webhookUrlProblem('https://127.0.0.1/x', false)).toBe(NOT_GLOBAL);
    expect(webhookUrlProblem('https://0x7f.1/x', false)).toBe(NOT_GLOBAL);
    expect(webhookUrlProblem('https://2130706433/', false)).toBe(NOT_GLOBAL);
    expect(webhookUrlProblem('https://[::1]:8443/', false)).toBe(NOT_GLOBAL);
    expect(webhookUrlProblem('https://192.0.2.10/x', false)).toBe(NOT_GLOBAL);
    expect(webhookUrlProblem('https://[2001:db8::1]/x', false)).toBe(NOT_GLOBAL);
    expect(webhookUrlProblem('https://[::ffff:0:c633:6401]/x', false)).toBe(NOT_GLOBAL);
    expect(webhookUrlProblem('https://8.8.8.8/x', false)).toBeNull();
    expect(webhookUrlProblem('https://[2606:4700:4700::1111]/x', false)).toBeNull();
    expect(webhookUrlProblem('http://localhost:3000/hook', true)).toBeNull();
    expect(webhookUrlProblem('http://192.0.2.1/hook', true)).toBeNull();
    expect(webhookUrlProblem('https://user:pw@hooks.example.com/', true)).toBe('url must not contain credentials');
    expect(webhookUrlProblem('hooks.example.com', false)).toBe('url must be an absolute https URL');
    expect(webhookUrlProblem('ftp://hooks.example.com', true)).toBe('url must be an absolute https URL');
  });
});
