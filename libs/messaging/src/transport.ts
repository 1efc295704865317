import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { queueGroupOf, ServiceName } from '@app/contracts';
import { coalesceNatsWrites } from './coalesce-writes';

/** NATS transport of a service: every replica joins the service's queue group, so N replicas share the load. */
export function natsTransport(service: ServiceName, url: string): MicroserviceOptions {
  coalesceNatsWrites();
  return {
    transport: Transport.NATS,
    options: {
      servers: url.split(','),
      queue: queueGroupOf(service),
      name: `${service}-server`,
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      waitOnFirstConnect: true,
      noAsyncTraces: true,
      gracefulShutdown: true,
      gracePeriod: 1000,
    },
  };
}
