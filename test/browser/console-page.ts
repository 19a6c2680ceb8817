import type { Page } from 'playwright-core';
import { baseUrl } from '../utils/e2e';
import { signIn, type Credentials } from './session-page';

// Functions given to page.evaluate run in the browser; these names are the browser's there (the tests' tsconfig has no DOM lib).
declare const document: any, window: any, localStorage: any, sessionStorage: any, location: any;
declare type HTMLElement = any;
declare type HTMLInputElement = any;
declare type HTMLOptionElement = any;

/** Opens the console (at `hash`, if given) and signs in as a person would, typing tenant id, e-mail and password. */
export async function openConsoleSignedIn(page: Page, person: Credentials, hash = ''): Promise<void> {
  await page.goto(`${baseUrl()}/console${hash}`);
  await signIn(page, person);
  await page.locator('#session').waitFor({ state: 'visible' });
}

/** Waits until every widget of the open dashboard is drawn or failed; answers their states. */
export async function widgetStates(page: Page): Promise<{ name: string; chartType: string; state: string }[]> {
  await page.locator('.widget').first().waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll('.widget')].every((w: HTMLElement) => w.dataset.state === 'drawn' || w.dataset.state === 'error'), undefined, { timeout: 20_000 });
  return page.$$eval('.widget', (widgets) => widgets.map((w) => ({ name: w.querySelector('h2')!.textContent!, chartType: (w as HTMLElement).dataset.chartType!, state: (w as HTMLElement).dataset.state! })));
}

/** What a widget shows, read from the page: ECharts' series data and the SVG marks drawn, or a table's rows, or a KPI's text. */
export function widgetContent(page: Page, name: string): Promise<{ series: unknown[][] | null; axes: { series: string; axis: string }[]; marks: number; rows: number; text: string }> {
  return page.evaluate((widgetName) => {
    const widget = [...document.querySelectorAll('.widget')].find((w) => w.querySelector('h2')?.textContent === widgetName)!;
    const chart = widget.querySelector('.chart');
    const echarts = (window as any).echarts;
    const option = chart ? echarts.getInstanceByDom(chart).getOption() : null;
    return {
      series: option ? option.series.map((s: { data: unknown[] }) => s.data) : null,
      // Which value axis (by its name) each series is drawn against.
      axes: option && Array.isArray(option.yAxis) ? option.series.map((s: { name: string; yAxisIndex?: number }) => ({ series: s.name, axis: option.yAxis[s.yAxisIndex ?? 0]?.name ?? '' })) : [],
      // Bars, slices, lines and areas are <path>s in ECharts' SVG renderer; axes and grid lines are too, so callers compare with the data.
      marks: chart ? chart.querySelectorAll('svg path').length : 0,
      rows: widget.querySelectorAll('tbody tr').length,
      text: (widget.querySelector('.widget-body') as HTMLElement).innerText,
    };
  }, name);
}
