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

// Every hostile spelling with the rule it must break (setting off). A third entry is the rule with
// private targets allowed, where the address rule is lifted but a spelling the parser rewrites is not.
const HOSTILE: Array<[string, UrlRule, UrlRule?]> = [
  // loopback, in every spelling the parser canonicalises
  ['https://127.0.0.1/', 'loopback'],
  ['https://127.255.255.254/hook', 'loopback'],
  ['https://2130706433/', 'loopback', 'format'],
  ['https://0177.0.0.1/', 'loopback', 'format'],
  ['https://0x7f.0.0.1/', 'loopback', 'format'],
  ['https://0x7f000001/', 'loopback', 'format'],
  ['https://0x7F.1/', 'loopback', 'format'],
  ['https://127.1/', 'loopback', 'format'],
  ['https://127.0.0.1./', 'loopback', 'format'],
  ['https://%31%32%37.0.0.1/', 'loopback', 'format'],
  ['https://１２７.0.0.1/', 'loopback', 'format'],
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
  ['https://0/', 'loopback', 'format'],
  ['https://[::]/', 'loopback'],
  // private
  ['https://10.0.0.1/', 'private'],
  ['https://012.0.0.1/', 'private', 'format'],
  ['https://167772161/', 'private', 'format'],
  ['https://172.16.0.1/', 'private'],
  ['https://172.31.255.255/', 'private'],
  ['https://192.168.0.1/', 'private'],
  ['https://0xc0.0xa8.1.1/', 'private', 'format'],
  ['https://100.64.0.1/', 'private'],
  ['https://[fd00::1]/', 'private'],
  ['https://[fec0::1]/', 'private'],
  ['https://[FC00::abcd]/', 'private'],
  ['https://[::ffff:10.1.2.3]/', 'private'],
  ['https://[::ffff:c0a8:101]/', 'private'],
  // link-local
  ['https://169.254.169.254/latest/meta-data/', 'link-local'],
  ['https://2852039166/', 'link-local', 'format'],
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
  // read differently by another parser than by WHATWG (which delivery uses): refused as format
  ['https://evil.com\\@127.0.0.1/hook', 'format'],
  ['https://evil.com\\@hooks.example.com/', 'format'],
  ['https://127.0.0.1\\@evil.com/', 'loopback', 'format'],
  ['https://example.com\\hook', 'format'],
  ['https://example.com/a\\b', 'format'],
  ['https://example.com/?q=\\', 'format'],
  ['https:\\\\example.com/', 'format'],
  ['http:/\\example.com/', 'scheme'],
  ['https:/\\example.com/', 'format'],
  ['https:example.com/', 'format'],
  ['https:/example.com/', 'format'],
  ['https:///example.com/', 'format'],
  ['https:127.0.0.1/', 'loopback', 'format'],
  ['https://good.example?@evil.example/', 'format'],
  ['https://good.example#@evil.example/', 'format'],
  ['https://good.example/p@evil.example/', 'format'],
  ['https://EXAMPLE.com:8443/hooks/booking?x=1#frag', 'format'],
  ['https://example.com/#', 'format'],
  ['https://a@b@example.com/', 'credentials'],
  ['https://evil%2ecom/', 'format'],
  ['https://%65xample.com/', 'format'],
  ['https://evil\u3002com/', 'format'],
  ['https://ｅｘａｍｐｌｅ.com/', 'format'],
  ['https://\u212Aexample.com/', 'format'],
  ['https://bücher.example/', 'format'],
  ['https://134744072/', 'format'],
  ['https://0x08.0x08.0x08.0x08/', 'format'],
  ['https://8.8.2056/', 'format'],
  ['https://010.8.8.8/', 'format'],
  ['https://example.com:0443/', 'format'],
  ['https://example.com:08443/', 'format'],
  ['https://example.com:/', 'format'],
  [`https://example.com/${'ü'.repeat(100)}`, 'length'],
];

// Accepted, with the normalised form that is stored and returned: only spelling every reader agrees on
// changes (case of scheme and host, a default port, an empty path, the path's dot segments and
// percent-encoding, IPv6 zero runs).
const PUBLIC: Array<[string, string]> = [
  ['https://172.32.0.1/', 'https://172.32.0.1/'],
  ['https://172.15.255.255/', 'https://172.15.255.255/'],
  ['https://192.169.0.1/', 'https://192.169.0.1/'],
  ['https://100.128.0.1/', 'https://100.128.0.1/'],
  ['https://11.0.0.1/', 'https://11.0.0.1/'],
  ['https://8.8.8.8/', 'https://8.8.8.8/'],
  ['https://example.com/hook', 'https://example.com/hook'],
  ['https://EXAMPLE.com:8443/hooks/booking?x=1', 'https://example.com:8443/hooks/booking?x=1'],
  ['HTTPS://Example.COM:443/a/../hook', 'https://example.com/hook'],
  ['https://example.com', 'https://example.com/'],
  ['https://example.com/x/%2e%2e/hook?', 'https://example.com/hook?'],
  ['https://example.com/ü?x=ä&y="<>"', 'https://example.com/%C3%BC?x=%C3%A4&y=%22%3C%3E%22'],
  ['https://example.com/a%40b?c=%5C', 'https://example.com/a%40b?c=%5C'],
  ['https://example.com./hook', 'https://example.com./hook'],
  ['https://localhost.example.com/', 'https://localhost.example.com/'],
  ['https://mylocalhost/', 'https://mylocalhost/'],
  ['https://[2606:4700::1111]/', 'https://[2606:4700::1111]/'],
  ['https://[2606:4700:0:0:0:0:0:1111]:8443/', 'https://[2606:4700::1111]:8443/'],
  ['https://[::ffff:8.8.8.8]/', 'https://[::ffff:808:808]/'],
  ['https://xn--bcher-kva.example/', 'https://xn--bcher-kva.example/'],
  ['https://XN--BCHER-KVA.example/', 'https://xn--bcher-kva.example/'],
  [urlOfLength(500), urlOfLength(500)],
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

  for (const [url, stored] of PUBLIC) {
    test(`accepts ${url.length > 60 ? `a URL of ${url.length} characters` : url} as ${stored.length > 60 ? 'itself' : stored}`, () => {
      assert.deepEqual(checkWebhookUrl(url, OFF), { ok: true, url: stored });
      // the stored form is a fixed point: the worker's parse of it gives it back, and so does the check
      assert.equal(new URL(stored).href, stored);
      assert.deepEqual(checkWebhookUrl(stored, OFF), { ok: true, url: stored });
    });
  }

  test('exactly 500 characters passes, 501 breaks length', () => {
    assert.equal(urlOfLength(500).length, 500);
    assert.deepEqual(checkWebhookUrl(urlOfLength(500), OFF), { ok: true, url: urlOfLength(500) });
    assert.deepEqual(checkWebhookUrl(urlOfLength(501), OFF), { ok: false, rule: 'length' });
  });
});

describe('webhook URL rules with WEBHOOK_ALLOW_PRIVATE_TARGETS on', () => {
  const isLifted = (rule: UrlRule) => rule === 'loopback' || rule === 'private' || rule === 'link-local';
  for (const [url, , whenOn] of HOSTILE.filter(([, rule]) => isLifted(rule))) {
    if (whenOn === undefined) {
      test(`allows ${url}`, () => {
        const r = checkWebhookUrl(url, ON);
        assert.equal(r.ok, true);
        assert.equal(r.ok && r.url, new URL(url).href);
      });
    } else {
      test(`still refuses ${JSON.stringify(url)} as ${whenOn}: the address is allowed, the spelling is not`, () => {
        assert.deepEqual(checkWebhookUrl(url, ON), { ok: false, rule: whenOn });
      });
    }
  }

  test('allows http:// but no other scheme', () => {
    assert.deepEqual(checkWebhookUrl('http://127.0.0.1:1234/', ON), { ok: true, url: 'http://127.0.0.1:1234/' });
    assert.deepEqual(checkWebhookUrl('HTTP://LocalHost:80/a/./b', ON), { ok: true, url: 'http://localhost/a/b' });
    assert.deepEqual(checkWebhookUrl('http://example.com/hook', ON), { ok: true, url: 'http://example.com/hook' });
    assert.deepEqual(checkWebhookUrl('http:/\\127.0.0.1/', ON), { ok: false, rule: 'format' });
    assert.deepEqual(checkWebhookUrl('ftp://127.0.0.1/', ON), { ok: false, rule: 'scheme' });
  });

  const kept = HOSTILE.filter(([url, rule]) => !isLifted(rule) && !(rule === 'scheme' && /^http:/i.test(url)));
  for (const [url, rule] of kept) {
    test(`still refuses ${JSON.stringify(url.length > 60 ? `${url.slice(0, 40)}…` : url)} as ${rule}`, () => {
      assert.deepEqual(checkWebhookUrl(url, ON), { ok: false, rule });
    });
  }
});
