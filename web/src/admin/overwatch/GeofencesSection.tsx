import { geofenceLimits, parsePastedGeofence, ringProblem, type Position } from '@locus/contract';
import {
  ActionIcon,
  Button,
  Card,
  Group,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowBackUp, IconClipboardText, IconPencil, IconTrash } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { newGeofenceKey, polygonOf, vertexCount, type GeofenceDraft } from './form-model';
import { GeofenceMap } from './GeofenceMap';

type Mode = 'none' | 'paste' | 'draw';

function nameProblem(name: string, taken: string[]): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'Give the geofence a name: alerts say which one was crossed';
  if (trimmed.length > geofenceLimits.nameMaxLength)
    return `At most ${geofenceLimits.nameMaxLength} characters`;
  if (taken.some((other) => other.toLowerCase() === trimmed.toLowerCase()))
    return 'Another geofence of this group has this name';
  return null;
}

function PastePanel({
  taken,
  defaultName,
  onAdd,
  onCancel,
}: {
  taken: string[];
  defaultName: string;
  onAdd: (fence: GeofenceDraft) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(defaultName);
  const [text, setText] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  function add() {
    const badName = nameProblem(name, taken);
    const parsed = parsePastedGeofence(text);
    setNameError(badName);
    setProblem(parsed.ok ? null : parsed.problem);
    if (badName === null && parsed.ok)
      onAdd({ key: newGeofenceKey(), name: name.trim(), polygon: parsed.polygon });
  }
  return (
    <Card withBorder padding="md" role="group" aria-label="Paste GeoJSON">
      <Stack gap="sm">
        <Text fw={600}>Paste GeoJSON</Text>
        <TextInput
          label="Geofence name"
          value={name}
          maxLength={geofenceLimits.nameMaxLength}
          onChange={(event) => setName(event.currentTarget.value)}
          error={nameError}
          required
        />
        <Textarea
          label="GeoJSON polygon"
          description={`A Polygon, or a Feature holding one; [longitude, latitude] positions, at most ${geofenceLimits.maxVertices} vertices.`}
          placeholder='{"type": "Polygon", "coordinates": [[[-90.07, 29.95], [-90.06, 29.95], [-90.06, 29.96], [-90.07, 29.95]]]}'
          autosize
          minRows={4}
          maxRows={12}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setProblem(null);
          }}
          error={problem}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          data-autofocus
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={add}>Add geofence</Button>
        </Group>
      </Stack>
    </Card>
  );
}

function DrawPanel({
  taken,
  defaultName,
  points,
  onUndo,
  onFinish,
  onCancel,
}: {
  taken: string[];
  defaultName: string;
  points: Position[];
  onUndo: () => void;
  onFinish: (name: string) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(defaultName);
  const [nameError, setNameError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  function finish() {
    const badName = nameProblem(name, taken);
    setNameError(badName);
    const shape =
      points.length < 3
        ? 'Click at least 3 corners on the map.'
        : points.length > geofenceLimits.maxVertices
          ? `A geofence may have at most ${geofenceLimits.maxVertices} vertices.`
          : ringProblem(polygonOf(points).coordinates[0]!);
    setProblem(shape);
    if (badName === null && shape === null) onFinish(name.trim());
  }
  return (
    <Card withBorder padding="md" role="group" aria-label="Draw on map">
      <Stack gap="sm">
        <Text fw={600}>Draw on map</Text>
        <Text size="sm">
          Click the map at each corner of the area, in order; the outline closes itself. Keyboard
          users: the map cannot be drawn on without a mouse or touch, so use Paste GeoJSON instead.
        </Text>
        <Text size="sm" aria-live="polite" data-testid="drawn-corners">
          {points.length === 1 ? '1 corner' : `${points.length} corners`}
        </Text>
        <TextInput
          label="Geofence name"
          value={name}
          maxLength={geofenceLimits.nameMaxLength}
          onChange={(event) => setName(event.currentTarget.value)}
          error={nameError}
          required
        />
        {problem && (
          <Text size="sm" c="red.8" role="alert">
            {problem}
          </Text>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            variant="default"
            leftSection={<IconArrowBackUp size={16} aria-hidden />}
            disabled={points.length === 0}
            onClick={() => {
              setProblem(null);
              onUndo();
            }}
          >
            Undo last point
          </Button>
          <Button onClick={finish}>Finish</Button>
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * A group's geofences (issue 14): listed with their corners, deleted, pasted as GeoJSON or drawn
 * on the map. A pasted or drawn polygon is checked with the contract's own rules (closed, not
 * crossing itself, at most 1,000 vertices) before it joins the list, with the same words as the
 * API's 400.
 */
export function GeofencesSection({
  geofences,
  onChange,
  error,
}: {
  geofences: GeofenceDraft[];
  onChange: (geofences: GeofenceDraft[]) => void;
  error?: string;
}) {
  const headingId = useId();
  const mapDescriptionId = useId();
  const [mode, setMode] = useState<Mode>('none');
  const [points, setPoints] = useState<Position[]>([]);
  const taken = geofences.map((fence) => fence.name);
  const defaultName = `Geofence ${geofences.length + 1}`;
  const full = geofences.length >= geofenceLimits.perGroup;
  const stopDrawing = () => {
    setMode('none');
    setPoints([]);
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId}>
        Geofences
      </Title>
      <Text size="sm" c="dimmed">
        Overwatch alerts when a phone of the group enters or leaves one of these areas. Optional; at
        most {geofenceLimits.perGroup}.
      </Text>
      {error && (
        <Text size="sm" c="red.8" role="alert">
          {error}
        </Text>
      )}
      {geofences.length === 0 ? (
        <Text>No geofences.</Text>
      ) : (
        <Table.ScrollContainer minWidth={360}>
          <Table striped aria-labelledby={headingId}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Vertices</Table.Th>
                <Table.Th w={48}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {geofences.map((fence) => (
                <Table.Tr key={fence.key}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{fence.name}</Table.Td>
                  <Table.Td>{vertexCount(fence.polygon)}</Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete geofence ${fence.name}`}
                      onClick={() => onChange(geofences.filter((other) => other.key !== fence.key))}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {mode === 'none' && (
        <Group gap="xs">
          <Button
            variant="light"
            leftSection={<IconClipboardText size={16} aria-hidden />}
            disabled={full}
            onClick={() => setMode('paste')}
          >
            Paste GeoJSON
          </Button>
          <Button
            variant="light"
            leftSection={<IconPencil size={16} aria-hidden />}
            disabled={full}
            onClick={() => {
              setPoints([]);
              setMode('draw');
            }}
          >
            Draw on map
          </Button>
          {full && (
            <Text size="sm" c="dimmed">
              This group has the most geofences it may have.
            </Text>
          )}
        </Group>
      )}
      {mode === 'paste' && (
        <PastePanel
          taken={taken}
          defaultName={defaultName}
          onCancel={() => setMode('none')}
          onAdd={(fence) => {
            onChange([...geofences, fence]);
            setMode('none');
          }}
        />
      )}
      {mode === 'draw' && (
        <DrawPanel
          taken={taken}
          defaultName={defaultName}
          points={points}
          onUndo={() => setPoints((current) => current.slice(0, -1))}
          onCancel={stopDrawing}
          onFinish={(name) => {
            onChange([...geofences, { key: newGeofenceKey(), name, polygon: polygonOf(points) }]);
            stopDrawing();
          }}
        />
      )}
      <GeofenceMap
        geofences={geofences}
        drawing={mode === 'draw'}
        points={points}
        onAddPoint={(position) => setPoints((current) => [...current, position])}
        descriptionId={mapDescriptionId}
      />
      <VisuallyHidden id={mapDescriptionId}>
        {geofences.length === 0
          ? 'No geofences drawn yet.'
          : `Shows ${geofences.length === 1 ? '1 geofence' : `${geofences.length} geofences`}: ${taken.join(', ')}.`}{' '}
        Arrow keys pan and plus and minus zoom.
      </VisuallyHidden>
    </Stack>
  );
}
