// `{sdl, documents, output, cwd}` on stdin, graphql-codegen's client preset's files on stdout as JSON
// `[{filename, content}]`. A script of its own, run by gateway/tools/graphql-sdk.ts in a child node:
// the codegen CLI loads ES modules, which jest's module system (the unit test of the committed files)
// cannot require.
import { executeCodegen } from '@graphql-codegen/cli';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { sdl, documents, output, cwd } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const { result, error } = await executeCodegen({
  cwd,
  schema: sdl,
  documents,
  silent: true,
  generates: {
    [output]: {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        // Enums as string unions: the wire values, no runtime objects to import.
        enumsAsTypes: true,
        useTypeImports: true,
        strictScalars: true,
        scalars: { DateTime: 'string', SafeInt: 'number', JSON: 'unknown', JSONObject: 'Record<string, unknown>' },
      },
    },
  },
});
if (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
process.stdout.write(JSON.stringify(result.map(({ filename, content }) => ({ filename, content }))));
