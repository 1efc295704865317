import { Module } from '@nestjs/common';
import { DashboardUsersController } from './dashboard-users.controller';

/**
 * The operators' dashboard-user routes, on the gateway's internal server (ADMIN_PORT, admin token): their
 * collaborators are the public application's instances, which the internal module lends.
 */
@Module({ controllers: [DashboardUsersController] })
export class DashboardOperatorsModule {}
