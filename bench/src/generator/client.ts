import { fork, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type {
  GeneratorReply,
  GeneratorRequest,
  GeneratorSetup,
  StepPlan,
  StepResult,
} from './messages';

const generatorNice = -10;

type Body<R> = R extends unknown ? Omit<R, 'id'> : never;

/** The orchestrator's handle on a load-generator child process. */
export class Generator {
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: GeneratorReply) => void>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: GeneratorReply) => this.waiting.get(reply.id)?.(reply));
    child.on('exit', (code, signal) => {
      const failed: GeneratorReply = {
        id: 0,
        type: 'failed',
        message: `generator exited (${signal ?? code})`,
      };
      for (const settle of this.waiting.values()) settle(failed);
    });
  }

  static async start(setup: GeneratorSetup): Promise<Generator> {
    const child = fork(fileURLToPath(new URL('./main.ts', import.meta.url)), {
      // A bigger young generation means fewer scavenges, so fewer generator pauses that would
      // show up as latency that no server caused.
      execArgv: ['--import', 'tsx', '--max-semi-space-size=64'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    try {
      // The generator is the measuring instrument: when the two cores are saturated it must
      // still send on schedule and read deliveries at once, so that waiting for a CPU is
      // charged to the pipeline (where it happens) rather than to a late send.
      if (child.pid !== undefined) setPriority(child.pid, generatorNice);
    } catch {
      console.warn(
        '[bench] could not raise the generator priority (needs root); expect more INVALID steps',
      );
    }
    const generator = new Generator(child);
    await generator.request({ type: 'setup', setup });
    return generator;
  }

  private request(body: Body<GeneratorRequest>): Promise<GeneratorReply & { type: 'done' }> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (reply) => {
        this.waiting.delete(id);
        if (reply.type === 'done') resolve(reply);
        else reject(new Error(reply.message));
      });
      this.child.send({ ...body, id } as GeneratorRequest);
    });
  }

  /** Opens sockets of `role` for the first `upTo` sessions (those already open are kept). */
  async open(role: 'dispatcher' | 'caller', upTo: number): Promise<void> {
    await this.request({ type: 'open', role, upTo });
  }

  async step(plan: StepPlan): Promise<StepResult> {
    const reply = await this.request({ type: 'step', plan });
    if (!reply.result) throw new Error('generator returned no step result');
    return reply.result;
  }

  stop(): void {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
  }
}
