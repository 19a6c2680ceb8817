import { ValidationError, type ValidationIssue } from '../../schema/errors';
import { PAGE_DEFAULTS } from './pagination';

/** Rejects a page outside 1.. or a page size outside 1..100, with Pydantic's range messages. */
export function validatePage(args: { page: number; perPage: number }): void {
  const issues: ValidationIssue[] = [];
  if (args.page < 1) {
    issues.push({ type: 'greater_than_equal', loc: ['page'], msg: 'Input should be greater than or equal to 1', input: args.page, ctx: { ge: 1 } });
  }
  if (args.perPage < 1) {
    issues.push({ type: 'greater_than_equal', loc: ['perPage'], msg: 'Input should be greater than or equal to 1', input: args.perPage, ctx: { ge: 1 } });
  } else if (args.perPage > PAGE_DEFAULTS.maxPerPage) {
    issues.push({
      type: 'less_than_equal',
      loc: ['perPage'],
      msg: `Input should be less than or equal to ${PAGE_DEFAULTS.maxPerPage}`,
      input: args.perPage,
      ctx: { le: PAGE_DEFAULTS.maxPerPage },
    });
  }
  if (issues.length) throw new ValidationError(issues);
}
