/**
 * What an input field accepts beyond what its GraphQL type says, for the services that check it and
 * the OpenAPI document that describes it (rest-bridge/json-schema.ts). GraphQL has no way to say
 * "optional, but never null" (an optional input field is a nullable one) nor to give an integer a
 * range, so this table says it once for both; test/e2e/rest-sdk.test.ts sends null to every
 * optional field of the Update*Input bodies and holds the server to what the document says (the
 * services keep their own Pydantic-style error for each refused null; that test keeps them in step).
 */
export interface InputFieldRule {
  /**
   * `false`: the field may be left out, but null is refused (422), because null would not mean
   * "clear" (a name, a flag, a chart type). The document writes the type without `null`.
   */
  nullable?: false;
  /** Smallest accepted integer (inclusive). */
  minimum?: number;
  /** The JSON types a JSON-scalar field accepts (the GraphQL `JSON` scalar says "anything", null included). */
  jsonTypes?: ('object' | 'array')[];
}

/** Rules by input type name, then field name. */
export type InputFieldRules = Record<string, Record<string, InputFieldRule>>;

const PRESENT_OR_ABSENT: InputFieldRule = { nullable: false };

/** A widget's grid cell: columns and rows count from 0, a widget spans at least one of each. */
export const WIDGET_POSITION_RULES = {
  x: { minimum: 0 },
  y: { minimum: 0 },
  w: { minimum: 1 },
  h: { minimum: 1 },
} as const satisfies Record<string, InputFieldRule>;

/** The rules of the graph's input types; a type or field missing here is described by its GraphQL type alone. */
export const INPUT_FIELD_RULES: InputFieldRules = {
  WidgetPositionInput: WIDGET_POSITION_RULES,
  CreateWidgetInput: { query: { jsonTypes: ['object'] } },
  UpdateWidgetInput: {
    dashboardId: PRESENT_OR_ABSENT,
    name: PRESENT_OR_ABSENT,
    chartType: PRESENT_OR_ABSENT,
    query: { nullable: false, jsonTypes: ['object'] },
    position: PRESENT_OR_ABSENT,
    isArchived: PRESENT_OR_ABSENT,
  },
  CreateDashboardInput: { layout: { nullable: false, jsonTypes: ['object', 'array'] } },
  UpdateDashboardInput: { name: PRESENT_OR_ABSENT, layout: { nullable: false, jsonTypes: ['object', 'array'] } },
  UpdateCampaignInput: { name: PRESENT_OR_ABSENT, isActive: PRESENT_OR_ABSENT },
  // A tenant always has a name, a time zone, a locale and a currency: they change, never clear.
  UpdateTenantInput: { name: PRESENT_OR_ABSENT, timezone: PRESENT_OR_ABSENT, locale: PRESENT_OR_ABSENT, currency: PRESENT_OR_ABSENT },
};
