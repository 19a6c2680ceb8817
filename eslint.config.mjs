// graphql-eslint's schema rules over the graph clients see (docs/api.md, "Schema style"), run by
// `npm run api:lint` on the API schema as the code composes it (written to a temporary file: the
// file pattern below matches it). ESLint checks nothing else here: the TypeScript has tsc and
// dependency-cruiser.
import graphqlPlugin from '@graphql-eslint/eslint-plugin';

const recommended = graphqlPlugin.configs['flat/schema-recommended'].rules;
const [, naming] = recommended['@graphql-eslint/naming-convention'];

export default [
  {
    files: ['**/api-schema.graphql'],
    languageOptions: { parser: graphqlPlugin.parser, parserOptions: { graphQLConfig: { schema: '**/api-schema.graphql' } } },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: {
      ...recommended,
      '@graphql-eslint/naming-convention': [
        'error',
        {
          // Enum values in UPPER_CASE among them: the REST bridge translates to the contract's spellings.
          ...naming,
          // `executeAnalyticsQuery` runs an analytics *query* (Cube's word), not a GraphQL one: the suffix names the thing.
          'FieldDefinition[parent.name.value=Query]': { forbiddenPrefixes: ['query', 'get'] },
        },
      ],
      // Pages, summaries, settings and other value types have no identity of their own; the
      // entities' ids are checked by test/unit/schema/schema-style.test.ts (identifiers typed ID).
      '@graphql-eslint/strict-id-in-types': 'off',
      // Every type, input and root field says what it is, but for the operation root types (type-graphql
      // gives them none; their fields are described) and Relay's connection and edge boilerplate, as the
      // rule's own documentation suggests.
      '@graphql-eslint/require-description': [
        'error',
        {
          ...recommended['@graphql-eslint/require-description'][1],
          ignoredSelectors: ['[type=ObjectTypeDefinition][name.value=/^(Query|Mutation|Subscription)$/]', '[type=ObjectTypeDefinition][name.value=/(Connection|Edge)$/]'],
        },
      ],
      // `PaymentMethod.paymentMethodConfigId` is the contract's field name (REST part 2), kept on the graph.
      '@graphql-eslint/no-typename-prefix': 'off',
    },
  },
];
