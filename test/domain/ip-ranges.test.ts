/** The address classes behind both the URL rules and the connect-time guard of webhook delivery. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyAddress, isPublicUnicast, type AddressClass } from '../../src/domain/webhooks/ip-ranges.ts';

const TABLE: Array<[string, AddressClass]> = [
  ['8.8.8.8', 'public'],
  ['172.32.0.1', 'public'],
  ['2606:4700::1', 'public'],
  ['::ffff:8.8.8.8', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['0:0:0:0:0:FFFF:127.0.0.1', 'loopback'],
  ['0.0.0.0', 'unspecified'],
  ['::', 'unspecified'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'private'],
  ['fd00::1', 'private'],
  ['fec0::1', 'private'],
  ['::ffff:10.0.0.1', 'private'],
  ['169.254.169.254', 'link-local'],
  ['fe80::1', 'link-local'],
  ['224.0.0.1', 'multicast'],
  ['ff02::1', 'multicast'],
  ['255.255.255.255', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['2002:7f00:1::', 'reserved'],
  ['64:ff9b::7f00:1', 'reserved'],
  ['::8.8.8.8', 'reserved'],
  ['::7f00:1', 'reserved'],
  ['::ffff:0:7f00:1', 'reserved'],
  ['not-an-address', 'reserved'],
  ['', 'reserved'],
];

test('every address class, in every spelling', () => {
  for (const [address, expected] of TABLE) assert.equal(classifyAddress(address), expected, address);
});

test('only public unicast may be reached', () => {
  for (const [address, expected] of TABLE) assert.equal(isPublicUnicast(address), expected === 'public', address);
});
