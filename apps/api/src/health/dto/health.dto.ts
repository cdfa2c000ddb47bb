import type { Dialect } from '@brandwire/store';
import { ApiProperty } from '@nestjs/swagger';

const DIALECTS = ['sqlite', 'postgres'] as const satisfies readonly Dialect[];

/** The answer of /healthz while the database answers (a database that does not is 503 STORAGE_UNAVAILABLE). */
export class HealthResponseDto {
  @ApiProperty({ type: Boolean, enum: [true], description: 'always true: the service runs and its database answered the latest check' })
  ok!: true;

  @ApiProperty({ enum: DIALECTS, description: 'where the service stores its data: the embedded SQLite file (BRANDWIRE_DATA_DIR) or PostgreSQL (DATABASE_URL)', example: 'sqlite' })
  storage!: Dialect;
}
