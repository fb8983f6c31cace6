// A stand-in for the IP geolocation service (GEO_URL) on 127.0.0.1: answers the country the test
// set, and records which paths (which IPs) the server asked about.
import http from 'node:http';

export async function startFakeGeo(country = 'US'): Promise<{ url: string; asked: string[]; setCountry(c: string): void; close(): Promise<void> }> {
  const asked: string[] = [];
  let current = country;
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ip: '203.0.113.7', country_code: current }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/{ip}/json`,
    asked,
    setCountry(c) {
      current = c;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
