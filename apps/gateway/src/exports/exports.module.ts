import { Module } from '@nestjs/common';
import { SandboxClockModule } from '../sandbox/sandbox-clock.module';
import { ExportsController } from './exports.controller';

/** The CSV exports (forwarded to the services that hold the rows). */
@Module({
  imports: [SandboxClockModule],
  controllers: [ExportsController],
})
export class ExportsModule {}
