import { Button, Group, Modal, ScrollArea, Text } from '@mantine/core';
import { modalWidths } from '../modal-widths';
import classes from '../public-site.module.css';
import type { LegalBlock, LegalDocument } from './documents';

export interface LegalDialogProps {
  opened: boolean;
  onClose(): void;
  /** "I accept": inside sign-up this ticks the terms box; elsewhere it just closes. */
  onAccept(): void;
}

function Block({ block }: { block: LegalBlock }) {
  if (typeof block === 'string') return <p>{block}</p>;
  return (
    <ul>
      {block.list.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

const dateFormat = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'long',
  timeZone: 'UTC',
});

/** A legal document in a wide modal; the I accept button stays in view below the scrolling text. */
export function LegalDialog({
  document,
  opened,
  onClose,
  onAccept,
}: LegalDialogProps & { document: LegalDocument }) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={document.title}
      size={modalWidths.wide}
      centered
      styles={{
        title: { fontSize: 20, fontWeight: 800, color: '#0b1f3a' },
        body: { paddingBottom: 16 },
      }}
    >
      <ScrollArea.Autosize mah="min(60vh, 560px)" type="auto" offsetScrollbars>
        <div className={classes.legal} tabIndex={0} aria-label={`${document.title} text`}>
          <Text size="sm" c="#4a5872" mb="sm">
            Last updated {dateFormat.format(new Date(document.lastUpdated))}
          </Text>
          <p>{document.summary}</p>
          {document.sections.map((section) => (
            <section key={section.id} aria-labelledby={`${document.id}-${section.id}`}>
              <h3 id={`${document.id}-${section.id}`}>{section.heading}</h3>
              {section.body.map((block, index) => (
                <Block key={index} block={block} />
              ))}
            </section>
          ))}
        </div>
      </ScrollArea.Autosize>
      <Group justify="flex-end" mt="md" pt="md" style={{ borderTop: '1px solid #dfe5ee' }}>
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        <Button color="#c8102e" onClick={onAccept}>
          I accept
        </Button>
      </Group>
    </Modal>
  );
}
