/**
 * The sequence diagram's panel: loaded when its tab is first opened (not first-screen code).
 */
import { SequenceView } from '../views/SequenceView';
import { useJump, useViewProps } from './ViewPanels';

/** Sequence diagram (C2's view): clients and Redis as columns, arrows for commands and replies. */
export function SequencePanel() {
  const props = useViewProps();
  const onJump = useJump();
  return (
    <div className="view-region">
      <SequenceView {...props} onJump={onJump} />
    </div>
  );
}
