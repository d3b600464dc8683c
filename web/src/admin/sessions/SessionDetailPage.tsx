import type { ConsentReceipt, TeamSessionDetail } from '@locus/contract';
import { teamSessionLimits } from '@locus/contract';
import {
  Alert,
  Anchor,
  Badge,
  Blockquote,
  Button,
  Card,
  Code,
  Container,
  Group,
  Loader,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ConfirmModal } from '../ConfirmModal';
import {
  failureMessage,
  useExportNow,
  useReleaseLegalHold,
  useSetLegalHold,
  useSigningKeys,
  useTeamSession,
} from './queries';
import { exportStateLabels, when } from './labels';

const stalledAfterMs = 10 * 60_000;

const languageNames = { en: 'English', es: 'Spanish', fr: 'French', zh: 'Mandarin' } as const;

/** /admin/sessions/:teamId/:id: one session's evidence, and its legal hold. */
export function SessionDetailPage() {
  const { teamId = '', id = '' } = useParams();
  const session = useTeamSession(teamId, id);
  return (
    <Container size="lg" py="md">
      <Stack gap="lg">
        <Anchor component={Link} to="/admin/sessions" size="sm">
          ← All sessions
        </Anchor>
        {session.isPending ? (
          <Group gap="xs">
            <Loader size="sm" aria-hidden />
            <Text size="sm">Loading the session…</Text>
          </Group>
        ) : session.isError ? (
          <>
            <Title order={1} fz={26}>
              Session
            </Title>
            <Alert color="red" role="alert" title="The session could not be loaded">
              {failureMessage(session.error)}
            </Alert>
          </>
        ) : (
          <SessionEvidence session={session.data} />
        )}
      </Stack>
    </Container>
  );
}

function SessionEvidence({ session }: { session: TeamSessionDetail }) {
  return (
    <>
      <Stack gap={4}>
        <Title order={1} fz={26}>
          Session of {when(session.startedAt)}
        </Title>
        <Text>
          {session.phoneNumbers.join(', ') || 'No number'}
          {session.dispatcher ? ` · ${session.dispatcher}` : ''}
          {session.externalReference ? ` · Ref. ${session.externalReference}` : ''}
        </Text>
        <Text size="sm" c="gray.7">
          {session.endedAt ? `Ended ${when(session.endedAt)}` : 'Still running'} · {session.fixes}{' '}
          {session.fixes === 1 ? 'location' : 'locations'}
        </Text>
      </Stack>
      <ConsentSection receipts={session.consent} />
      <ExportSection session={session} />
      <HoldSection session={session} />
    </>
  );
}

function ConsentSection({ receipts }: { receipts: ConsentReceipt[] }) {
  const headingId = useId();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} fz={18} id={headingId}>
          What the caller agreed to
        </Title>
        {receipts.length === 0 ? (
          <Text size="sm">
            No consent receipt: no caller tapped Share on their page in this session (a location
            from the emergency-data provider or texted back needs none).
          </Text>
        ) : (
          receipts.map((receipt) => <Receipt key={receipt.id} receipt={receipt} />)
        )}
      </Stack>
    </Card>
  );
}

function Receipt({ receipt }: { receipt: ConsentReceipt }) {
  return (
    <Stack gap={6} component="article" aria-label={`Consent of ${receipt.phoneNumber}`}>
      <Text size="sm" fw={600}>
        {receipt.phoneNumber} tapped “{receipt.button}” at {when(receipt.receivedAt)}
      </Text>
      <Blockquote p="sm" color="navy" lang={receipt.language}>
        <Text fw={600} size="sm">
          {receipt.title}
        </Text>
        {receipt.lines.map((line) => (
          <Text key={line} size="sm">
            {line}
          </Text>
        ))}
      </Blockquote>
      <Text size="xs" c="gray.7">
        In {languageNames[receipt.language]}, texts version {receipt.catalogueVersion}
        {receipt.renderedFromVersion !== receipt.catalogueVersion
          ? ` (shown here from version ${receipt.renderedFromVersion})`
          : ''}
        , asked by {receipt.agencyName}.{' '}
        {receipt.tappedAt
          ? `The phone’s clock said ${when(receipt.tappedAt)}.`
          : 'The phone’s clock was too far off to keep.'}
      </Text>
      <Text size="xs" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
        Browser: {receipt.userAgent ?? 'not given'}
      </Text>
    </Stack>
  );
}

function ExportSection({ session }: { session: TeamSessionDetail }) {
  const headingId = useId();
  const exportNow = useExportNow(session.teamId, session.id);
  const current = session.export;
  const state = exportStateLabels[current.state];
  // An attempt that has written for minutes died with its worker: Export again may start another.
  const running =
    current.state === 'writing' &&
    current.lastAttemptAt !== null &&
    Date.now() - Date.parse(current.lastAttemptAt) < stalledAfterMs;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} fz={18} id={headingId}>
          Export and evidence file
        </Title>
        <Group gap="xs" aria-live="polite">
          <Badge variant="filled" color={state.color}>
            {state.label}
          </Badge>
          {current.attempts > 0 && (
            <Text size="sm">
              {current.attempts} {current.attempts === 1 ? 'attempt' : 'attempts'}
              {current.lastAttemptAt ? `, the last at ${when(current.lastAttemptAt)}` : ''}
            </Text>
          )}
        </Group>
        {(current.state === 'failed' || current.state === 'retrying') && current.lastError && (
          <Alert
            color="red"
            role="alert"
            title={current.state === 'failed' ? 'The export failed' : 'The last attempt failed'}
          >
            {current.lastError}
            {current.state === 'retrying'
              ? ' Locus tries again on its own.'
              : ' Nothing is lost: Export now tries again.'}
          </Alert>
        )}
        {current.state === 'stored' && (
          <Stack gap={4}>
            <Text size="sm">
              Stored {current.storedAt ? when(current.storedAt) : ''} in{' '}
              {current.storage === 's3' ? 'the team’s S3 storage' : 'the export folder'}:
            </Text>
            {current.fileName && (
              <Text size="sm">
                Locations: <Code>{current.fileName}</Code>
              </Text>
            )}
            {current.evidenceFile && (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                Evidence file: <Code>{current.evidenceFile}</Code>
              </Text>
            )}
            {current.chainHead && current.signingKeyId && (
              <SignedWith chainHead={current.chainHead} keyId={current.signingKeyId} />
            )}
          </Stack>
        )}
        {exportNow.isError && (
          <Alert color="red" role="alert">
            {failureMessage(exportNow.error)}
          </Alert>
        )}
        <Group>
          <Button
            variant={current.state === 'stored' ? 'default' : 'filled'}
            loading={exportNow.isPending}
            disabled={session.endedAt === null || running || session.historyPurged}
            onClick={() => exportNow.mutate(undefined)}
          >
            {current.state === 'none' ? 'Export now' : 'Export again'}
          </Button>
          {session.endedAt === null && <Text size="sm">The session must end first.</Text>}
        </Group>
      </Stack>
    </Card>
  );
}

/** The chain head as signed, the key that signed it, and how anyone checks the file with it. */
function SignedWith({ chainHead, keyId }: { chainHead: string; keyId: string }) {
  const keys = useSigningKeys();
  const key = keys.data?.find((each) => each.keyId === keyId);
  return (
    <>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        Chain head <Code>{chainHead}</Code>, signed with key <Code>{keyId}</Code>.
      </Text>
      <Text size="sm">
        Anyone can check the file offline with the deployment’s public key:{' '}
        <Code>npm run verify-export -- FILE --key locus-evidence-{keyId}.pub.pem</Code>
        {key && (
          <>
            {' '}
            <Anchor
              href={`data:application/x-pem-file;charset=utf-8,${encodeURIComponent(key.publicKeyPem)}`}
              download={`locus-evidence-${keyId}.pub.pem`}
              underline="always"
            >
              Download public key {keyId}
            </Anchor>
          </>
        )}
      </Text>
    </>
  );
}

function HoldSection({ session }: { session: TeamSessionDetail }) {
  const headingId = useId();
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  // Once released, the Release button gives way to the hold form: the focus goes to its reason.
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const hold = useSetLegalHold(session.teamId, session.id);
  const release = useReleaseLegalHold(session.teamId, session.id);
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} fz={18} id={headingId}>
          Legal hold
        </Title>
        {session.hold ? (
          <>
            <Text size="sm">
              On hold since {when(session.hold.since)}
              {session.hold.by ? `, set by ${session.hold.by}` : ''}. Its locations, chat and
              consent receipts are kept whatever the team’s retention.
            </Text>
            {session.hold.reason && (
              <Text size="sm">
                Reason: <Text span>{session.hold.reason}</Text>
              </Text>
            )}
            <Group>
              <Button variant="default" onClick={() => setConfirming(true)}>
                Release hold
              </Button>
            </Group>
          </>
        ) : session.historyPurged ? (
          <Text size="sm">
            The retention purge has deleted this session’s locations, chat and consent receipts;
            there is nothing left to hold.
          </Text>
        ) : (
          <>
            <Text size="sm">
              {session.historyPurged
                ? 'The retention purge has deleted this session’s locations, chat and consent receipts.'
                : session.historyDeletedAfter
                  ? `Its locations, chat and consent receipts are deleted after ${when(session.historyDeletedAfter)} (the team’s retention), unless it is on hold.`
                  : 'Its history is kept while the session runs.'}
            </Text>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                hold.mutate({ reason }, { onSuccess: () => setReason('') });
              }}
            >
              <Stack gap="xs">
                <Textarea
                  ref={reasonField}
                  id={reasonId}
                  label="Reason for the hold"
                  description="For example a case or court reference. Kept in the audit trail."
                  required
                  maxLength={teamSessionLimits.legalHoldReasonMaxLength}
                  autosize
                  minRows={2}
                  value={reason}
                  onChange={(event) => setReason(event.currentTarget.value)}
                />
                {hold.isError && (
                  <Alert color="red" role="alert">
                    {failureMessage(hold.error)}
                  </Alert>
                )}
                <Group>
                  <Button type="submit" loading={hold.isPending} disabled={reason.trim() === ''}>
                    Put on legal hold
                  </Button>
                </Group>
              </Stack>
            </form>
          </>
        )}
      </Stack>
      {confirming && (
        <ConfirmModal
          title="Release the legal hold?"
          confirmLabel="Release hold"
          pending={release.isPending}
          error={release.error}
          returnFocusTo={reasonField}
          onClose={() => setConfirming(false)}
          onConfirm={() => release.mutate(undefined, { onSuccess: () => setConfirming(false) })}
        >
          <Text size="sm">
            The team’s retention applies again: a session that ended long enough ago loses its
            locations, chat and consent receipts at the next purge.
          </Text>
        </ConfirmModal>
      )}
    </Card>
  );
}
