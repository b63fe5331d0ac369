import { useState, type ReactElement, type ReactNode } from 'react';
import { Tooltip } from 'antd';

/**
 * An antd Tooltip mounted on the first hover: a 200-row page of row buttons would otherwise mount hundreds
 * of them (each with its own trigger, placement and style work) for the one the pointer rests on.
 * It anchors to an overlay of the button rather than wrapping it, so the button itself is never remounted
 * (a click right after the pointer arrives, or a tap, still reaches it). The button keeps its aria-label.
 */
export function HoverTooltip({ title, children }: { title: ReactNode; children: ReactElement }) {
  const [hovered, setHovered] = useState<boolean>();
  return (
    <span
      style={{ display: 'inline-flex', position: 'relative' }}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
    >
      {children}
      {hovered !== undefined && (
        <Tooltip title={title} open={hovered}>
          <span style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }} />
        </Tooltip>
      )}
    </span>
  );
}
