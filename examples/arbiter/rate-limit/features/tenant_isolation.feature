Feature: Tenant isolation under burst

  Scenario: Tenant isolation under burst
    Given tenant A sends 800 req/min
    And tenant B sends 40 req/min
    When the rate-limit hook applies a limit
    Then tenant A gets a temporary limit for 60 seconds
    And tenant B keeps its base quota
    And the evidence holds tenant_id, limit_reason and expires_at

  Scenario: Limit expires
    Given tenant A was limited at 10:00:00
    When 60 seconds pass
    Then tenant A gets its base quota back
