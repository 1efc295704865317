import { Inject, Injectable } from '@nestjs/common';
import { Acquirer } from '@app/contracts';
import { ProviderConnector } from './provider-connector';

/** Injection token of the connectors given at start-up: the built-in simulator, then the module options' ones. */
export const CONNECTORS = Symbol('CONNECTORS');

/** The acquirer connectors by name; a connection names the one it uses. */
@Injectable()
export class ConnectorRegistry {
  private readonly byAcquirer = new Map<string, ProviderConnector>();

  /** A later connector takes the place of an earlier one of the same acquirer. */
  constructor(@Inject(CONNECTORS) connectors: readonly ProviderConnector[]) {
    connectors.forEach((c) => this.register(c));
  }

  /** Adds a connector the app builds itself (a real provider's); it replaces one of the same acquirer. */
  register(connector: ProviderConnector): void {
    this.byAcquirer.set(connector.acquirer, connector);
  }

  has(acquirer: string): boolean {
    return this.byAcquirer.has(acquirer);
  }

  get(acquirer: Acquirer | string): ProviderConnector {
    const connector = this.byAcquirer.get(acquirer);
    // Connections are validated against ACQUIRERS when they are stored, so this is a deployment mistake.
    if (!connector) throw new Error(`No connector for acquirer ${acquirer}`);
    return connector;
  }
}
