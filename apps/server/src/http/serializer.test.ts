// The fast serializer writes, for every answer its schema accepts, the very bytes zod's check followed by
// JSON.stringify wrote before it: each declared response of every endpoint, from generated valid values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoints } from '@mooz/contract/endpoints';
import { errorEnvelope } from '@mooz/contract/envelope';
import { zodArbitrary } from '../../test/fuzz/zod-arbitrary';
import { zodSerializer } from './serializer';

const responses: [string, z.ZodType][] = [['the error envelope', errorEnvelope]];
for (const [group, declared] of Object.entries(endpoints)) {
  for (const [name, endpoint] of Object.entries(declared as Record<string, { response?: z.ZodType }>)) {
    if (endpoint.response) responses.push([`${group}.${name}`, endpoint.response]);
  }
}

describe('the fast serializer', () => {
  it.each(responses)('writes %s as zod and JSON.stringify did', (_name, schema) => {
    const serialize = zodSerializer(schema);
    fc.assert(
      fc.property(zodArbitrary(schema), (value) => {
        expect(serialize(value)).toBe(JSON.stringify(z.parse(schema, value)));
      }),
      { seed: 20_261_122, numRuns: 60 },
    );
  });
});
