import { Module } from '@nestjs/common';
import { AdminController } from './admin.controller';
import { ConnectionsController } from './connections.controller';
import { ParkedRenewalsController } from './parked-renewals.controller';

/**
 * The operators' API on the gateway's internal server: merchants and keys, routing connections, parked
 * renewals. Its collaborators are the public application's instances, which the internal module lends.
 */
@Module({ controllers: [AdminController, ConnectionsController, ParkedRenewalsController] })
export class AdminModule {}
