/**
 * Keeps a run's timeline model and layout up to date as the store's log changes. The log says
 * what changed (the session's change feed): within one generation it only grew, so the model is
 * extended by the events past the ones seen; a new generation (a cut, a fork, another run) or a
 * shorter visible prefix rebuilds it. Nothing here compares events.
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

/** A run's events as the feed hands them: `events[0, eventCount)` of `generation`. */
export interface LogPrefix {
  readonly generation: number;
  readonly events: readonly TraceEvent[];
  readonly eventCount: number;
}

export class TimelineSource {
  private builder: TimelineModelBuilder | null = null;
  private layoutBuilder: TimelineLayoutBuilder | null = null;
  private slotWidths: TimelineSlotWidths | null = null;
  private clientIds: readonly string[] = [];
  private tokenOwners: Readonly<Record<string, string>> = {};
  private generation = Number.NaN;
  private count = 0;
  private model: TimelineModel | null = null;
  /** How many times the model was built from the first event (for tests). */
  rebuildCount = 0;

  /** The model and layout of the log's first `eventCount` events, extended when the log only grew. */
  update(log: LogPrefix, clientIds: readonly string[], tokenOwners: Readonly<Record<string, string>>): TimelineModel {
    const count = Math.min(log.eventCount, log.events.length);
    const continues =
      this.builder !== null && log.generation === this.generation && count >= this.count && clientIds === this.clientIds && tokenOwners === this.tokenOwners;
    if (!continues || this.builder === null) {
      this.builder = createTimelineModelBuilder(clientIds, tokenOwners);
      this.layoutBuilder = null;
      this.clientIds = clientIds;
      this.tokenOwners = tokenOwners;
      this.generation = log.generation;
      this.rebuildCount += 1;
      this.model = null;
      this.count = 0;
    }
    if (this.model === null || count !== this.count) this.model = this.builder.append(log.events, count);
    this.count = count;
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

/** The model of the log's prefix from `source`, extended rather than rebuilt while the log only grows. */
export function useTimelineModel(
  source: TimelineSource,
  events: readonly TraceEvent[],
  eventCount: number,
  generation: number,
  clientIds: readonly string[],
  tokenOwners: Readonly<Record<string, string>>,
): TimelineModel {
  // The log grows in place within a generation: its count, not its identity, says it grew.
  return useMemo(() => source.update({ generation, events, eventCount }, clientIds, tokenOwners), [source, events, eventCount, generation, clientIds, tokenOwners]);
}
