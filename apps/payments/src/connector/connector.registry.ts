import { Inject, Injectable } from '@nestjs/common';
import { Acquirer } from '@app/contracts';
import { Connector } from './connector';

/** Injection token of the acquirer adapters: the built-in sandbox one, then those given at start-up. */
export const CONNECTORS = Symbol('CONNECTORS');

/** The acquirer adapters by name; a connection names the one it uses. */
@Injectable()
export class ConnectorRegistry {
  private readonly byAcquirer: ReadonlyMap<string, Connector>;

  /** A later adapter takes the place of an earlier one of the same acquirer. */
  constructor(@Inject(CONNECTORS) connectors: readonly Connector[]) {
    this.byAcquirer = new Map(connectors.map((c) => [c.acquirer, c]));
  }

  get(acquirer: Acquirer | string): Connector {
    const connector = this.byAcquirer.get(acquirer);
    // Connections are validated against ACQUIRERS when they are stored, so this is a deployment mistake.
    if (!connector) throw new Error(`No connector for acquirer ${acquirer}`);
    return connector;
  }
}
