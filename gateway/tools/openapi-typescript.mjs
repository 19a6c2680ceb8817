// The OpenAPI document on stdin, its TypeScript types (openapi-typescript) on stdout. A script of
// its own, run by gateway/tools/rest-sdk-schema.ts in a child node: openapi-typescript loads ES
// modules, which jest's module system (the unit test of the committed types) cannot require.
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const ast = await openapiTS(JSON.parse(Buffer.concat(chunks).toString('utf8')), {
  // A field with a default may be left out of a request body, as the server allows.
  defaultNonNullable: false,
  // `type: object` with no properties is a free-form JSON object (a widget's query), not an empty one.
  emptyObjectsUnknown: true,
  // A binary string is a multipart file part: a Blob to the caller.
  transform: (schema) => (schema.format === 'binary' ? BLOB : undefined),
});
process.stdout.write(astToString(ast));
