import { Module } from '@nestjs/common';
import { SandboxClockModule } from '../sandbox/sandbox-clock.module';
import { PingController } from './ping.controller';

/** The ping route (a round trip to the services). */
@Module({
  imports: [SandboxClockModule],
  controllers: [PingController],
})
export class PingModule {}
