import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The floor the network allows: one HTML document with an inline-styled button and nothing
 * else, from a plain `node:http` server in the bench's own process. Loaded under the same
 * profile as the caller's page, it is the least any page can take to show a button.
 */
export function referenceHtml(shareText: string): string {
  const text = shareText.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Share your location</title></head>
<body><button type="button" style="display:block;width:100%;min-height:56px;font:700 20px sans-serif;color:#fff;background:#0b5cd5;border:0;border-radius:8px">${text}</button></body>
</html>
`;
}

export async function startReferenceServer(
  shareText: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  const html = Buffer.from(referenceHtml(shareText));
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/') {
      response.writeHead(404, { 'content-length': 0 }).end();
      return;
    }
    response
      .writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-length': html.length,
        'cache-control': 'no-cache',
      })
      .end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
