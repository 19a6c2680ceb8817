import { Embedded, Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';
import type { ChartType } from '../types/enums';
import { WidgetPosition } from './widget-position.embeddable';

/**
 * One chart of a dashboard. `dashboardId` is a plain column, not an ORM relation: the database's
 * foreign key (on delete cascade) removes a dashboard's widgets with it, in the same statement.
 */
@Entity({ tableName: 'widgets' })
export class Widget extends TenantScopedEntity {
  @Property({ type: 'uuid', fieldName: 'dashboard_id' })
  dashboardId!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', fieldName: 'chart_type' })
  chartType!: ChartType;

  /** The analytics query in Cube's REST shape, validated on save (query/validate-widget-query.ts). */
  @Property({ type: 'json' })
  query!: Record<string, unknown>;

  /** The zone the query runs in; every stored widget has one (issue 34), UTC only for a row that somehow lacks it. */
  get timezone(): string {
    return typeof this.query.timezone === 'string' ? this.query.timezone : 'UTC';
  }

  @Embedded(() => WidgetPosition, { prefix: 'position_' })
  position!: WidgetPosition;

  @Property({ type: 'boolean', fieldName: 'is_archived' })
  isArchived = false;
}
