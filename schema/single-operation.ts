import { Kind, parse, validate, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';

/** A fixed document parsed and validated once (a REST route's, at start-up), handed as is to whoever runs it. */
export interface PreparedOperation {
  /** The document's text, as sent to a subgraph or hashed for a plan cache. */
  source: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

/** Parses a fixed document (a REST route's, an in-process run's) and checks it against the schema; throws with every problem. */
export function parseSingleOperation(source: string, schema: GraphQLSchema): PreparedOperation {
  const document = parse(source);
  const problems = validate(schema, document);
  if (problems.length > 0) throw new Error(problems.map((p) => p.message).join('; '));
  const operation = onlyOperation(document);
  if (!operation) throw new Error('the document must hold exactly one operation');
  return { source, document, operation };
}

/** The document's operation when it holds exactly one, else null. */
export function onlyOperation(document: DocumentNode): OperationDefinitionNode | null {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operations.length === 1 ? operations[0] : null;
}
