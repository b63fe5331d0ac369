import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../testing/server.ts';

/** A GET as sent, answer bytes as received (fetch would decompress them out of sight). */
function raw(s: TestServer, path: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(s.baseUrl + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

describe('answer compression', () => {
  let s: TestServer;
  let auth: Record<string, string>;
  beforeAll(async () => {
    s = await startTestServer();
    const token = await s.login();
    auth = { authorization: `Bearer ${token}` };
    for (let i = 0; i < 40; i++) await s.api('POST', '/api/cp_locs', { token, body: { address: `Compression test site number ${i}, Long Street` } });
  });
  afterAll(() => s.close());

  it('compresses a large API answer with brotli or gzip, as the client accepts', async () => {
    const plain = await raw(s, '/api/cp_locs?size=50', auth);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const expected = JSON.parse(plain.body.toString());

    const br = await raw(s, '/api/cp_locs?size=50', { ...auth, 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(expected);

    const gzip = await raw(s, '/api/cp_locs?size=50', { ...auth, 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.body).toString())).toEqual(expected);
    // The security headers are still there.
    expect(gzip.headers['x-content-type-options']).toBe('nosniff');
  });

  it('leaves a small answer as it is', async () => {
    const res = await raw(s, '/api/app/version', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString())).toHaveProperty('version');
  });

  it('streams Excel and PDF files as they are (already compressed)', async () => {
    const xlsx = await raw(s, '/api/cp_locs/export/excel?headers=Id&headers=Address&keys=loc_id&keys=address', { ...auth, 'accept-encoding': 'br, gzip' });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers['content-encoding']).toBeUndefined();
    expect(xlsx.body.subarray(0, 2).toString()).toBe('PK'); // a zip: the workbook itself
    const list = await s.api('GET', '/api/cp_locs?size=1', { headers: auth });
    const id = list.body.dataset.content[0].loc_id;
    const pdf = await raw(s, `/api/cp_locs/export/pdf/${id}`, { ...auth, 'accept-encoding': 'br, gzip' });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
