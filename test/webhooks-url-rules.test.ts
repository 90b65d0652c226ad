import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkWebhookUrl, type UrlRule } from '../src/domain/webhooks/url-rules.ts';

const OFF = { allowPrivateTargets: false };
const ON = { allowPrivateTargets: true };

/** `https://example.com/` padded with a path to exactly n characters. */
function urlOfLength(n: number): string {
  const base = 'https://example.com/';
  return base + 'a'.repeat(n - base.length);
}

// Every hostile spelling with the rule it must break (setting off).
const HOSTILE: Array<[string, UrlRule]> = [
  // loopback, in every spelling the parser canonicalises
  ['https://127.0.0.1/', 'loopback'],
  ['https://127.255.255.254/hook', 'loopback'],
  ['https://2130706433/', 'loopback'],
  ['https://0177.0.0.1/', 'loopback'],
  ['https://0x7f.0.0.1/', 'loopback'],
  ['https://0x7f000001/', 'loopback'],
  ['https://0x7F.1/', 'loopback'],
  ['https://127.1/', 'loopback'],
  ['https://127.0.0.1./', 'loopback'],
  ['https://%31%32%37.0.0.1/', 'loopback'],
  ['https://１２７.0.0.1/', 'loopback'],
  ['https://[::1]/', 'loopback'],
  ['https://[0:0:0:0:0:0:0:1]/', 'loopback'],
  ['https://[::ffff:127.0.0.1]/', 'loopback'],
  ['https://[::ffff:7f00:1]/', 'loopback'],
  ['https://[0:0:0:0:0:ffff:127.0.0.1]:8443/', 'loopback'],
  ['https://localhost/', 'loopback'],
  ['https://localhost./', 'loopback'],
  ['https://localhost../', 'loopback'],
  ['https://LOCALHOST/', 'loopback'],
  ['https://LocalHost:8443/hook', 'loopback'],
  ['https://foo.localhost/', 'loopback'],
  ['https://a.b.LOCALHOST./', 'loopback'],
  ['https://0.0.0.0/', 'loopback'],
  ['https://0/', 'loopback'],
  ['https://[::]/', 'loopback'],
  // private
  ['https://10.0.0.1/', 'private'],
  ['https://012.0.0.1/', 'private'],
  ['https://167772161/', 'private'],
  ['https://172.16.0.1/', 'private'],
  ['https://172.31.255.255/', 'private'],
  ['https://192.168.0.1/', 'private'],
  ['https://0xc0.0xa8.1.1/', 'private'],
  ['https://100.64.0.1/', 'private'],
  ['https://[fd00::1]/', 'private'],
  ['https://[fec0::1]/', 'private'],
  ['https://[FC00::abcd]/', 'private'],
  ['https://[::ffff:10.1.2.3]/', 'private'],
  ['https://[::ffff:c0a8:101]/', 'private'],
  // link-local
  ['https://169.254.169.254/latest/meta-data/', 'link-local'],
  ['https://2852039166/', 'link-local'],
  ['https://[fe80::1]/', 'link-local'],
  ['https://[::ffff:169.254.169.254]/', 'link-local'],
  // other non-public literals
  ['https://224.0.0.1/', 'reserved'],
  ['https://255.255.255.255/', 'reserved'],
  ['https://192.0.2.10/', 'reserved'],
  ['https://[ff02::1]/', 'reserved'],
  ['https://[2001:db8::1]/', 'reserved'],
  ['https://[::127.0.0.1]/', 'reserved'],
  ['https://[::8.8.8.8]/', 'reserved'],
  ['https://[::ffff:0:127.0.0.1]/', 'reserved'],
  ['https://[64:ff9b::7f00:1]/', 'reserved'],
  ['https://[2002:7f00:1::]/', 'reserved'],
  // scheme
  ['http://example.com/', 'scheme'],
  ['HTTP://example.com/', 'scheme'],
  ['ftp://example.com/hook', 'scheme'],
  ['javascript:alert(1)', 'scheme'],
  ['file:///etc/passwd', 'scheme'],
  ['wss://example.com/', 'scheme'],
  // credentials
  ['https://user:pass@example.com/', 'credentials'],
  ['https://user@example.com/', 'credentials'],
  ['https://:pass@example.com/', 'credentials'],
  ['https://@example.com/', 'credentials'],
  ['https://example.com:443@evil.example/', 'credentials'],
  // length and format
  [urlOfLength(501), 'length'],
  ['', 'format'],
  ['not a url', 'format'],
  ['example.com/hook', 'format'],
  ['https://', 'format'],
  ['https://exa mple.com/', 'format'],
  [' https://example.com/', 'format'],
  ['https://example.com/\n', 'format'],
  ['https://exa\tmple.com/', 'format'],
  ['https://[fe80::1%25eth0]/', 'format'],
  ['https://1.2.3.4.5/', 'format'],
  ['https://[::1/', 'format'],
];

const PUBLIC = [
  'https://172.32.0.1/',
  'https://172.15.255.255/',
  'https://192.169.0.1/',
  'https://100.128.0.1/',
  'https://11.0.0.1/',
  'https://8.8.8.8/',
  'https://example.com/hook',
  'https://EXAMPLE.com:8443/hooks/booking?x=1#frag',
  'https://example.com./hook',
  'https://localhost.example.com/',
  'https://mylocalhost/',
  'https://[2606:4700::1111]/',
  'https://[::ffff:8.8.8.8]/',
  'https://xn--bcher-kva.example/',
  urlOfLength(500),
];

describe('webhook URL rules', () => {
  test('the hostile table has at least 30 entries', () => {
    assert.ok(HOSTILE.length >= 30, `only ${HOSTILE.length}`);
  });

  for (const [url, rule] of HOSTILE) {
    test(`refuses ${JSON.stringify(url.length > 60 ? `${url.slice(0, 40)}… (${url.length} chars)` : url)} as ${rule}`, () => {
      assert.deepEqual(checkWebhookUrl(url, OFF), { ok: false, rule });
    });
  }

  for (const url of PUBLIC) {
    test(`accepts ${url.length > 60 ? `a URL of ${url.length} characters` : url}`, () => {
      assert.deepEqual(checkWebhookUrl(url, OFF), { ok: true });
    });
  }

  test('exactly 500 characters passes, 501 breaks length', () => {
    assert.equal(urlOfLength(500).length, 500);
    assert.deepEqual(checkWebhookUrl(urlOfLength(500), OFF), { ok: true });
    assert.deepEqual(checkWebhookUrl(urlOfLength(501), OFF), { ok: false, rule: 'length' });
  });
});

describe('webhook URL rules with WEBHOOK_ALLOW_PRIVATE_TARGETS on', () => {
  const lifted = HOSTILE.filter(([, rule]) => rule === 'loopback' || rule === 'private' || rule === 'link-local');
  for (const [url] of lifted) {
    test(`allows ${url}`, () => {
      assert.deepEqual(checkWebhookUrl(url, ON), { ok: true });
    });
  }

  test('allows http:// but no other scheme', () => {
    assert.deepEqual(checkWebhookUrl('http://127.0.0.1:1234/', ON), { ok: true });
    assert.deepEqual(checkWebhookUrl('http://example.com/hook', ON), { ok: true });
    assert.deepEqual(checkWebhookUrl('ftp://127.0.0.1/', ON), { ok: false, rule: 'scheme' });
  });

  const kept = HOSTILE.filter(([url, rule]) => !['loopback', 'private', 'link-local', 'scheme'].includes(rule) || (rule === 'scheme' && !/^http:/i.test(url)));
  for (const [url, rule] of kept) {
    test(`still refuses ${JSON.stringify(url.length > 60 ? `${url.slice(0, 40)}…` : url)} as ${rule}`, () => {
      assert.deepEqual(checkWebhookUrl(url, ON), { ok: false, rule });
    });
  }
});
