import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BillingSubjects,
  COMMAND_CALLERS,
  COMMAND_SUBJECTS,
  commandServiceOf,
  CommandSubject,
  NATS_APPS,
  NatsApp,
  PaymentLinksSubjects,
  PaymentsExtrasSubjects,
  PaymentsSubjects,
} from '@app/contracts';

const ROOT = join(__dirname, '../..');
const { OUTPUT, render } = require('../../scripts/nats-config.js') as {
  OUTPUT: string;
  render: (load: (mod: string) => Record<string, unknown>) => string;
};

const GROUPS: Record<string, Record<string, string>> = {
  PaymentsSubjects,
  PaymentsExtrasSubjects,
  PaymentLinksSubjects,
  BillingSubjects,
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

/** The command subjects an app's code names outside its @MessagePattern handlers: the ones it sends. */
function commandsSentBy(app: NatsApp): CommandSubject[] {
  const sent = new Set<CommandSubject>();
  for (const source of sources(join(ROOT, 'apps', app, 'src'))) {
    for (const line of source.split('\n')) {
      if (line.includes('@MessagePattern')) continue;
      for (const m of line.matchAll(/\b(\w+Subjects)\.(\w+)/g)) {
        const subject = GROUPS[m[1]]?.[m[2]] as CommandSubject | undefined;
        if (subject) sent.add(subject);
      }
    }
  }
  return [...sent].sort();
}

describe('NATS permissions (k8s/base/nats/authorization.conf)', () => {
  it('are what scripts/nats-config.js generates from libs/contracts (run it after changing a subject)', () => {
    const generated = render((mod) => require(join(ROOT, mod)));
    expect(readFileSync(OUTPUT, 'utf8')).toBe(generated);
  });

  it('let each app send the commands its code sends', () => {
    for (const app of NATS_APPS) {
      const undeclared = commandsSentBy(app).filter((s) => !COMMAND_CALLERS[s].includes(app));
      expect([app, undeclared]).toEqual([app, []]);
    }
  });

  it('grant no command to an app that never sends it (the gateway reaches ping and clock advance by service)', () => {
    const indirect = new Set<string>([
      PaymentsSubjects.ping,
      PaymentLinksSubjects.ping,
      BillingSubjects.ping,
      PaymentsSubjects.clockAdvanced,
      PaymentLinksSubjects.clockAdvanced,
      BillingSubjects.clockAdvanced,
    ]);
    for (const app of NATS_APPS) {
      const sent = new Set(commandsSentBy(app));
      const unused = COMMAND_SUBJECTS.filter(
        (s) => COMMAND_CALLERS[s].includes(app) && !sent.has(s) && !(app === 'gateway' && indirect.has(s)),
      );
      expect([app, unused]).toEqual([app, []]);
    }
  });

  it('keep every command away from its own service and from the apps that do not call it', () => {
    for (const subject of COMMAND_SUBJECTS) {
      expect(COMMAND_CALLERS[subject]).not.toContain(commandServiceOf(subject));
    }
    expect(COMMAND_CALLERS[PaymentsSubjects.refund]).toEqual(['gateway']);
    expect(COMMAND_CALLERS[PaymentsSubjects.capture]).toEqual(['gateway']);
  });
});
