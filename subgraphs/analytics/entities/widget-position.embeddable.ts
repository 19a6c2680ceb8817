import { Embeddable, Property } from '@mikro-orm/core';

/** Where a widget sits on its dashboard's grid; four integer columns so the database can check the ranges. */
@Embeddable()
export class WidgetPosition {
  @Property({ type: 'integer' })
  x!: number;

  @Property({ type: 'integer' })
  y!: number;

  @Property({ type: 'integer' })
  w!: number;

  @Property({ type: 'integer' })
  h!: number;
}
