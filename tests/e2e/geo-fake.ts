// A stand-in for the IP geolocation service on 127.0.0.1. It answers the country that the
// test set last (POST /country), like a visitor from that country would be told.
import http from 'node:http';

export async function startGeoFake(): Promise<{ url: string; close(): Promise<void> }> {
  let country = 'US';
  const server = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method === 'POST' && req.url?.startsWith('/country/')) {
      country = decodeURIComponent(req.url.slice('/country/'.length)) || 'US';
      res.end('ok');
      return;
    }
    if (country === 'FAIL') {
      res.statusCode = 503;
      res.end('unavailable');
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ip: '203.0.113.7', country_code: country }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { url: `http://127.0.0.1:${port}/json`, close: () => new Promise((r) => server.close(() => r())) };
}
