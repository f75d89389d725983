// One entry of the search list: its icon, its title and line with the matched text marked, and for a
// page or a course a star. The star is drawn inside the option for the pointer; the keyboard stars with
// Ctrl/⌘+B (an option may not hold a button of its own), and the option says whether it is starred.
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { iconOf } from '../../config/navigation-icons';
import { segmentsOf, type Span } from './highlight';
import type { SearchEntry } from './search-list';
import classes from './navigation.module.css';

function Highlighted({ text, spans }: { text: string; spans: readonly Span[] }) {
  return (
    <>
      {segmentsOf(text, spans).map((segment, at) =>
        segment.match ? <mark key={at}>{segment.text}</mark> : <span key={at}>{segment.text}</span>,
      )}
    </>
  );
}

interface Props {
  id: string;
  index: number;
  entry: SearchEntry;
  active: boolean;
  starred: boolean;
  onActivate: () => void;
  onOpen: () => void;
  onStar: () => void;
}

export function SearchOption({ id, index, entry, active, starred, onActivate, onOpen, onStar }: Props) {
  const { t } = useTranslation();
  const Icon = iconOf(entry.icon);
  const Star = starred ? IconStarFilled : IconStar;
  return (
    <div
      id={id}
      role="option"
      aria-selected={active}
      data-index={index}
      data-active={active || undefined}
      className={classes.option}
      // Focus stays in the field: a press must not take it away.
      onMouseDown={(event) => event.preventDefault()}
      onMouseMove={() => !active && onActivate()}
      onClick={onOpen}
      data-testid="search-option"
    >
      <Icon size={20} stroke={1.6} className={classes.optionIcon} aria-hidden="true" />
      <span className={classes.optionText}>
        <span className={classes.optionTitle}>
          <Highlighted text={entry.title} spans={entry.highlights.title} />
        </span>
        {entry.subtitle && (
          <span className={classes.optionSubtitle}>
            <Highlighted text={entry.subtitle} spans={entry.highlights.subtitle} />
          </span>
        )}
      </span>
      {entry.bookmarkId && (
        <>
          {starred && <span className="mooz-visually-hidden">{t('bookmarks.starred')}</span>}
          <span
            aria-hidden="true"
            className={classes.optionStar}
            data-starred={starred || undefined}
            title={starred ? t('bookmarks.remove') : t('bookmarks.add')}
            onClick={(event) => {
              event.stopPropagation();
              onStar();
            }}
            data-testid="search-star"
          >
            <Star size={18} stroke={1.6} />
          </span>
        </>
      )}
    </div>
  );
}
