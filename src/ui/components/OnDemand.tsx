import { Component, lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { useT } from '../store/context';

/**
 * A part of the page whose code loads the first time it is shown (a dialog, the workbench). The
 * service worker precaches only what a first visit loads; such a part is cached when first opened
 * online (vite.config.ts, `offline`). Offline before that, its import fails: the part then says so
 * and offers to try again, instead of taking the whole page down with it.
 */
export interface OnDemandPart<P extends object> {
  /** The part's component; a failed load is replaced by a fresh one on the next try. */
  current: LazyExoticComponent<ComponentType<P>>;
  readonly retry: () => void;
}

/** Thrown in place of the import's own error, so the boundary tells a failed load from a failed render. */
class PartLoadError extends Error {}

export function onDemand<P extends object>(load: () => Promise<ComponentType<P>>): OnDemandPart<P> {
  const fresh = () =>
    lazy(() =>
      load().then(
        (component) => ({ default: component }),
        (error: unknown) => {
          throw new PartLoadError(error instanceof Error ? error.message : String(error));
        },
      ),
    );
  const part: OnDemandPart<P> = { current: fresh(), retry: () => (part.current = fresh()) };
  return part;
}

interface BoundaryProps {
  readonly part: OnDemandPart<object>;
  readonly props: object;
  /** Called by the notice's close button: the caller closes what asked for the part. */
  readonly onDismiss: (() => void) | undefined;
  readonly fallback: ReactNode;
}

/** Renders the part itself (not `children`), so "Try again" renders the fresh import `retry` made. */
class LoadBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(error: unknown): { failed: boolean } {
    // Only a failed load is this boundary's to show; anything else goes on up.
    if (error instanceof PartLoadError) return { failed: true };
    throw error;
  }

  override componentDidCatch(error: unknown): void {
    // React.lazy keeps a rejected import for good: the next try must import again.
    if (error instanceof PartLoadError) this.props.part.retry();
  }

  override render(): ReactNode {
    if (this.state.failed) return <PartUnavailable onRetry={() => this.setState({ failed: false })} onDismiss={this.props.onDismiss} />;
    const Part = this.props.part.current;
    return (
      <Suspense fallback={this.props.fallback}>
        <Part {...this.props.props} />
      </Suspense>
    );
  }
}

function PartUnavailable({ onRetry, onDismiss }: { onRetry: () => void; onDismiss: (() => void) | undefined }) {
  const t = useT();
  return (
    <div className="part-unavailable" role="alert" data-testid="part-unavailable">
      <p>{t('partUnavailable')}</p>
      <button type="button" className="button button--ghost button--small" onClick={onRetry} data-testid="part-unavailable.retry">
        {t('partRetry')}
      </button>
      {onDismiss && (
        <button type="button" className="button button--ghost button--small" onClick={onDismiss} data-testid="part-unavailable.dismiss">
          {t('partDismiss')}
        </button>
      )}
    </div>
  );
}

interface ShowProps<P extends object> {
  readonly part: OnDemandPart<P>;
  readonly props: P;
  /** Shown while the part's code loads (nothing by default). */
  readonly fallback?: ReactNode;
  readonly onDismiss?: () => void;
}

/** Shows an on-demand part: `fallback` while its code loads, a notice with "Try again" if it cannot load. */
export function ShowOnDemand<P extends object>({ part, props, fallback = null, onDismiss }: ShowProps<P>) {
  return <LoadBoundary part={part as unknown as OnDemandPart<object>} props={props} fallback={fallback} onDismiss={onDismiss} />;
}
