import { relativeServer } from '../../../../gateway/http/openapi-document';

// Swagger UI's "Try it out" resolves the server against the page's origin; an absolute one would
// be another origin when the page is opened at 127.0.0.1 and the document says localhost.
describe('relativeServer', () => {
  it('keeps only the path of PUBLIC_URL, so requests go to the origin the document came from', () => {
    expect(relativeServer('http://localhost:3000')).toBe('/');
    expect(relativeServer('https://api.example.test')).toBe('/');
    expect(relativeServer('https://example.test/hpp')).toBe('/hpp');
  });
});
