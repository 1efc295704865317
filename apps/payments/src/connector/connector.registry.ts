import { Injectable } from '@nestjs/common';
import { Acquirer } from '@app/contracts';
import { Connector } from './connector';
import { SandboxAcquirerConnector } from './sandbox-acquirer.connector';

/** The acquirer adapters by name; a connection names the one it uses. */
@Injectable()
export class ConnectorRegistry {
  private readonly byAcquirer: ReadonlyMap<string, Connector>;

  constructor(sandbox: SandboxAcquirerConnector) {
    this.byAcquirer = new Map<string, Connector>([[sandbox.acquirer, sandbox]]);
  }

  get(acquirer: Acquirer | string): Connector {
    const connector = this.byAcquirer.get(acquirer);
    // Connections are validated against ACQUIRERS when they are stored, so this is a deployment mistake.
    if (!connector) throw new Error(`No connector for acquirer ${acquirer}`);
    return connector;
  }
}
