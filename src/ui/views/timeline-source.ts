/**
 * Keeps a run's timeline model and layout up to date as the published events change: extends them when the new events continue the ones seen (the run grew), rebuilds them
 * when the run was replaced or cut (a new scenario, a new choice after seeking back).
 */
import { useMemo } from 'react';
import type { TraceEvent } from '../store/published';
import { createTimelineLayoutBuilder, type RawLayout, type TimelineLayoutBuilder } from './timeline-layout';
import { createTimelineModelBuilder, type TimelineModelBuilder } from './timeline-model';
import type { TimelineModel } from './timeline-types';

export interface TimelineSlotWidths {
  readonly commandStepPx: number;
  readonly plainStepPx: number;
}

export class TimelineSource {
  private builder: TimelineModelBuilder | null = null;
  private layoutBuilder: TimelineLayoutBuilder | null = null;
  private slotWidths: TimelineSlotWidths | null = null;
  private clientIds: readonly string[] = [];
  private tokenOwners: Readonly<Record<string, string>> = {};
  private first: TraceEvent | undefined;
  private last: TraceEvent | undefined;
  private count = 0;
  private model: TimelineModel | null = null;
  /** How many times the model was built from the first event (for tests). */
  rebuildCount = 0;

  /**
   * The model and layout of `events`. Events are append-only within a run: the new list continues
   * the old one when it is at least as long and holds the very same first and last-seen events
   * (the engine keeps its event objects; a cut or replaced run has new ones there).
   */
  update(events: readonly TraceEvent[], clientIds: readonly string[], tokenOwners: Readonly<Record<string, string>>): TimelineModel {
    const continues =
      this.builder !== null &&
      clientIds === this.clientIds &&
      tokenOwners === this.tokenOwners &&
      events.length >= this.count &&
      (this.count === 0 || (events[0] === this.first && events[this.count - 1] === this.last));
    if (!continues || this.builder === null) {
      this.builder = createTimelineModelBuilder(clientIds, tokenOwners);
      this.layoutBuilder = null;
      this.clientIds = clientIds;
      this.tokenOwners = tokenOwners;
      this.rebuildCount += 1;
      this.model = null;
    }
    if (this.model === null || events.length !== this.count) this.model = this.builder.append(events);
    this.count = events.length;
    this.first = events[0];
    this.last = events[events.length - 1];
    return this.model;
  }

  /** The layout of `model` (the one `update` returned last), extended by what it gained. */
  layout(model: TimelineModel, slotWidths: TimelineSlotWidths): RawLayout {
    if (model !== this.model) throw new Error('TimelineSource.layout: not the model of the last update');
    if (
      this.layoutBuilder === null ||
      this.slotWidths?.commandStepPx !== slotWidths.commandStepPx ||
      this.slotWidths.plainStepPx !== slotWidths.plainStepPx
    ) {
      this.layoutBuilder = createTimelineLayoutBuilder(slotWidths);
      this.slotWidths = slotWidths;
    }
    return this.layoutBuilder.extend(model);
  }
}

/** The model of `events` from `source`, extended rather than rebuilt while the run only grows. */
export function useTimelineModel(
  source: TimelineSource,
  events: readonly TraceEvent[],
  clientIds: readonly string[],
  tokenOwners: Readonly<Record<string, string>>,
): TimelineModel {
  const eventCount = events.length;
  // eventCount: a store that grows one array in place still gets a new model.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => source.update(events, clientIds, tokenOwners), [source, events, eventCount, clientIds, tokenOwners]);
}
