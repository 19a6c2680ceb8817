import type { ApolloServerPlugin } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import { GraphQLError, Kind, visit, type ArgumentNode, type DocumentNode, type GraphQLFormattedError, type ValueNode } from 'graphql';
import { ValidationError, type ValidationIssue } from '../../schema/errors';
import { textIssues, textProblem } from '../../schema/text-rule';

/** Most issues reported for one operation; the first few say enough. */
const MAX_ISSUES = 10;

/** Issues of the text rule in a GraphQL value literal located at `loc` (an argument, then input fields and list indexes). */
function literalIssues(value: ValueNode, loc: (string | number)[], issues: ValidationIssue[]): void {
  if (issues.length >= MAX_ISSUES) return;
  if (value.kind === Kind.STRING) {
    const reason = textProblem(value.value);
    if (reason) issues.push({ type: 'value_error', loc, msg: `Value error, ${reason}`, input: value.value, ctx: { error: reason } });
  } else if (value.kind === Kind.LIST) {
    value.values.forEach((item, index) => literalIssues(item, [...loc, index], issues));
  } else if (value.kind === Kind.OBJECT) {
    for (const field of value.fields) literalIssues(field.value, [...loc, field.name.value], issues);
  }
}

/**
 * The text rule (schema/text-rule.ts) over a GraphQL operation: its string literals, located as
 * subgraphs locate input (`["input", "name"]`: the argument, then the input fields), variable
 * defaults under `["variables", name]`, and the request's variables under `["variables", ...]`.
 */
export function operationTextIssues(document: DocumentNode, variables: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const argumentsOf = (args: readonly ArgumentNode[] | undefined) => {
    for (const arg of args ?? []) literalIssues(arg.value, [arg.name.value], issues);
  };
  visit(document, {
    Field: (node) => argumentsOf(node.arguments),
    Directive: (node) => argumentsOf(node.arguments),
    VariableDefinition: (node) => {
      if (node.defaultValue) literalIssues(node.defaultValue, ['variables', node.variable.name.value], issues);
    },
  });
  if (variables !== null && typeof variables === 'object') issues.push(...textIssues(variables, ['variables'], MAX_ISSUES));
  return issues.slice(0, MAX_ISSUES);
}

/** The refusal of such text, as the subgraphs answer bad input: `BAD_USER_INPUT` with the issues in `extensions.validation`. */
export function textRuleError(issues: ValidationIssue[], status = 400): GraphQLError {
  const domain = new ValidationError(issues).toGraphQLError();
  return new GraphQLError(domain.message, { extensions: { ...domain.extensions, http: { status, headers: new HeaderMap() } } });
}

/**
 * Refuses a `/graphql` operation holding NUL or an unpaired surrogate before it runs (400, like
 * Apollo's other request errors). A document's literals are checked once: Apollo Server keeps the
 * parsed document, so the same object comes back for the same text.
 */
export function textRulePlugin(): ApolloServerPlugin {
  const literalsChecked = new WeakMap<DocumentNode, ValidationIssue[]>();
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, request }) {
          let literals = literalsChecked.get(document);
          if (!literals) {
            literals = operationTextIssues(document, null);
            literalsChecked.set(document, literals);
          }
          const issues = [...literals, ...(request.variables ? textIssues(request.variables, ['variables'], MAX_ISSUES) : [])];
          if (issues.length > 0) throw textRuleError(issues.slice(0, MAX_ISSUES));
        },
      };
    },
  };
}

/** graphql-js's syntax errors for a surrogate in a string literal: escaped (`\uD800`, `\u{DC00}`) or raw. */
const SURROGATE_SYNTAX_ERROR = /^Syntax Error: (Invalid Unicode escape sequence: "\\u\{?0*[dD][89a-fA-F][0-9a-fA-F]{2}\}?"|Invalid character within String: U\+D[89A-F][0-9A-F]{2})\.$/;

/**
 * The parser refuses an unpaired surrogate in a string literal before any rule can see it (the
 * GraphQL spec makes it a syntax error); this answers that refusal as the text rule's
 * `BAD_USER_INPUT`, located at the input field or argument whose string holds it (the name before
 * the string's opening quote), or at `["query"]`. Other parse errors: null.
 */
export function surrogateLiteralError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError | null {
  if (formatted.extensions?.code !== 'GRAPHQL_PARSE_FAILED' || !SURROGATE_SYNTAX_ERROR.test(formatted.message)) return null;
  const syntax = error instanceof GraphQLError ? error : null;
  const before = syntax?.source && syntax.positions?.length ? syntax.source.body.slice(0, syntax.positions[0]) : '';
  const field = /([_A-Za-z][_0-9A-Za-z]*)\s*:\s*"(?:[^"\\]|\\.)*$/.exec(before)?.[1];
  const reason = 'text must not contain unpaired surrogate characters';
  const issue: ValidationIssue = { type: 'value_error', loc: field ? [field] : ['query'], msg: `Value error, ${reason}`, input: null, ctx: { error: reason } };
  return { message: issue.msg, locations: formatted.locations, extensions: { code: 'BAD_USER_INPUT', validation: [issue] } };
}
